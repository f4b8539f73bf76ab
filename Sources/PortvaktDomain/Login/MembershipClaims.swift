import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// What a membership claim keeps: the claim itself (its emails and tries counted in the database), the records it may name, and its audit events.
public protocol MembershipClaimStore: Sendable {
    func insertMembershipClaim(
        handleHash: Data, expiresAt: Date, now: Date, payload seal: (_ claimID: String) throws -> SealedValue
    ) async throws -> MembershipClaim
    func membershipClaim(handleHash: Data, now: Date) async throws -> MembershipClaim?
    func countMembershipClaimEmail(handleHash: Data, limit: Int, now: Date) async throws -> MembershipClaim?
    func countMembershipClaimTry(handleHash: Data, limit: Int, now: Date) async throws -> MembershipClaim?
    func setMembershipClaimCode(id: String, recordIDs: [String], codeHash: Data, codeExpiresAt: Date) async throws
    func takeMembershipClaim(handleHash: Data) async throws -> MembershipClaim?
    func memberRecords(email: String) async throws -> [MemberRecord]
    func memberRecord(id: String) async throws -> MemberRecord?
    func append(_ event: AuditEvent) async throws
}

/// S15: a BankID or Vipps login that found no member record may claim one by the email on it.
/// The person gives the email; when a record without a number that no account holds carries it,
/// a one-time code goes there (valid 10 minutes, 5 tries); the page says the same whether or not
/// it did, so nobody learns which addresses are on record. The right code links the identity to
/// the record, and the login's personnummer is written back as a first login writes it.
///
/// Everything a later request needs is in `membership_claims`: any instance can continue a claim.
/// Emails per claim and tries per code are counted in the statement that allows them; codes one
/// identity asks for, codes sent to one address and wrong codes of one identity are throttled
/// across claims.
public struct MembershipClaims: Sendable {
    let store: any MembershipClaimStore
    let cipher: FieldCipher
    let linker: IdentityLinker
    let throttle: LoginThrottle
    let mailer: Mailer
    let personnummerContext: Personnummer.Context
    let logger: Logger
    let now: @Sendable () -> Date

    public static let claimLifetime: TimeInterval = 30 * 60
    public static let codeLifetime: TimeInterval = 10 * 60
    public static let triesPerCode = 5
    public static let emailsPerClaim = 3

    public init(
        store: any MembershipClaimStore, cipher: FieldCipher, linker: IdentityLinker, throttle: LoginThrottle, mailer: Mailer,
        personnummerContext: Personnummer.Context, logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.cipher = cipher
        self.linker = linker
        self.throttle = throttle
        self.mailer = mailer
        self.personnummerContext = personnummerContext
        self.logger = logger
        self.now = now
    }

    /// What the claim remembers of the login, sealed: the app's request, the provider's identity
    /// and how the person authenticated.
    struct Payload: Codable {
        var request: AppAuthorizationRequest
        var provider: IdentityProvider
        var subject: String
        /// The eleven digits when the provider gave a valid number; `provided` says which case.
        var personnummer: String?
        var provided: String
        var phone: String?
        var name: String?
        var amr: [String]
        var acr: String
        var authTime: Date?
    }

    /// A claim in progress, as its pages need it.
    public struct Claim: Sendable {
        public let request: AppAuthorizationRequest
        public let provider: IdentityProvider
        fileprivate let payload: Payload

        /// The BankID or Vipps identity, as the throttles and the audit trail name it.
        var identity: String { "\(provider.rawValue):\(payload.subject)" }
        /// The audit trail's source: the login the claim continues.
        var source: String { "\(provider.rawValue)-login" }
    }

    public enum SendOutcome: Sendable {
        /// The same for an email on record and one that is not.
        case sent
        case tooManyEmails
        case invalidEmail
        case ended
    }

    public enum ConfirmOutcome: Sendable {
        /// The login goes on as the member's: the app's login, the user, how, and the number.
        case linked(PendingLogin, User, LoginCompletion.Method, ProvidedPersonnummer)
        case wrongCode(triesLeft: Int)
        /// The code is older than 10 minutes: a new one may be sent (the claim goes on).
        case codeExpired
        case throttled
        /// No code can open it any more (too many tries, expired, or the record was taken); the
        /// login, to tell the app, when the claim was still there to end.
        case ended(PendingLogin?)
    }

    /// Whether the login may claim a record by email (not when a record carries its number).
    public func mayClaim(_ identity: IdentityLinker.Login) async throws -> Bool {
        try await linker.mayClaimByEmail(identity)
    }

    /// Starts a claim for a login that found no record; the handle goes in the page's form.
    public func begin(
        _ login: PendingLogin, identity: IdentityLinker.Login, provided: ProvidedPersonnummer, method: LoginCompletion.Method
    ) async throws -> String {
        let handle = randomToken()
        let now = self.now()
        let kind = switch provided {
        case .number: "number"
        case .absent: "absent"
        case .invalid: "invalid"
        }
        let payload = Payload(
            request: login.request, provider: identity.provider, subject: identity.subject, personnummer: identity.personnummer?.digits,
            provided: kind, phone: identity.phone, name: identity.name, amr: method.amr, acr: method.acr, authTime: method.authTime
        )
        let data = try JSONEncoder().encode(payload)
        _ = try await store.insertMembershipClaim(
            handleHash: RefreshTokenSecret.hash(handle), expiresAt: now.addingTimeInterval(Self.claimLifetime), now: now
        ) { id in try cipher.seal(data, context: Self.context(id)) }
        return handle
    }

    /// The open claim with this handle, for its page.
    public func claim(handle: String) async throws -> Claim? {
        guard let row = try await store.membershipClaim(handleHash: RefreshTokenSecret.hash(handle), now: now()) else { return nil }
        return try open(row)
    }

    /// The person gives the email on their membership. Counted against the claim and the identity
    /// before anything is looked up; against the address only once a record there has their name.
    public func sendCode(handle: String, email typed: String) async throws -> SendOutcome {
        let email = typed.trimmingCharacters(in: .whitespaces).lowercased()
        guard email.count <= 254, (try? MailAddress(email)) != nil else { return .invalidEmail }
        let now = self.now()
        guard let row = try await store.countMembershipClaimEmail(handleHash: RefreshTokenSecret.hash(handle), limit: Self.emailsPerClaim, now: now) else {
            return try await store.membershipClaim(handleHash: RefreshTokenSecret.hash(handle), now: now) == nil ? .ended : .tooManyEmails
        }
        let claim = try open(row)
        let identity = claim.identity
        if try await throttle.reserve([.claimSends(identity)], now: now) != nil { return .tooManyEmails }
        var records = try await linker.claimableByEmail(try await store.memberRecords(email: email), name: claim.payload.name)
        var outcome = records.isEmpty ? "no_record" : "success"
        // Only a send that passes the name check counts against the address: anyone can type an
        // address, and counting their sends would keep its member from a code. A spent allowance
        // is answered as an address without a record, so the answer never tells a name matched.
        if !records.isEmpty, try await throttle.reserve([.claimEmail(email)], now: now) != nil {
            records = []
            outcome = "address_throttled"
        }
        // A code is stored either way, so a claim without a record cannot be told apart by what it keeps.
        let code = Self.newCode()
        try await store.setMembershipClaimCode(
            id: row.id, recordIDs: records.map(\.id), codeHash: Self.hash(code, claimID: row.id), codeExpiresAt: now.addingTimeInterval(Self.codeLifetime)
        )
        if let first = records.first {
            try await mailer.enqueue(.membershipCode(code: code), to: first.email ?? email, language: claim.request.language)
        }
        // Audited either way, so both answers make the same writes but the email.
        try await store.append(AuditEvent(
            occurredAt: now, action: .memberClaimCodeSent, outcome: outcome,
            subjectType: records.isEmpty ? nil : "member_record", subjectID: records.first?.id, source: claim.source,
            details: ["claim": row.id, "identity": identity, "records": records.map(\.id).joined(separator: ",")]
        ))
        return .sent
    }

    /// The person enters the code. The try is counted before it is compared.
    public func confirm(handle: String, code typed: String) async throws -> ConfirmOutcome {
        let now = self.now()
        let handleHash = RefreshTokenSecret.hash(handle)
        guard let row = try await store.countMembershipClaimTry(handleHash: handleHash, limit: Self.triesPerCode, now: now) else {
            return .ended(try await end(handleHash))
        }
        let claim = try open(row)
        let identity = claim.identity
        let claimant = LoginThrottle.Key.claimant(identity)
        if try await throttle.reserve([claimant], now: now) != nil { return .throttled }
        let code = typed.filter { !$0.isWhitespace }
        let matches = row.codeHash.map { constantTimeEqual(Self.hash(code, claimID: row.id).hexEncoded(), $0.hexEncoded()) } ?? false
        let unexpired = (row.codeExpiresAt ?? 0) > now.millisecondsSince1970
        guard matches, unexpired, !row.memberRecordIDs.isEmpty else {
            try await store.append(AuditEvent(
                occurredAt: now, action: .memberClaimFailed, outcome: "failure", subjectType: row.memberRecordIDs.isEmpty ? nil : "member_record",
                subjectID: row.memberRecordIDs.first, source: claim.source,
                details: ["reason": unexpired ? "wrong code" : "code expired", "claim": row.id, "identity": identity]
            ))
            guard unexpired else { return .codeExpired }
            let left = Self.triesPerCode - row.tries
            guard left > 0 else { return .ended(try await end(handleHash)) }
            return .wrongCode(triesLeft: left)
        }
        // Taken before linking, so one code links once.
        guard try await store.takeMembershipClaim(handleHash: handleHash) != nil else { return .ended(nil) }
        try await throttle.release(claimant)
        var records: [MemberRecord] = []
        for id in row.memberRecordIDs {
            if let record = try await store.memberRecord(id: id) { records.append(record) }
        }
        let personnummer = claim.payload.personnummer.flatMap { try? Personnummer($0, context: personnummerContext) }
        let login = IdentityLinker.Login(
            provider: claim.provider, subject: claim.payload.subject, personnummer: personnummer, phone: claim.payload.phone, name: claim.payload.name
        )
        guard records.count == row.memberRecordIDs.count, let user = try await linker.link(claimed: records, login: login, now: now) else {
            logger.notice("A claimed member record was taken before the code was entered")
            return .ended(PendingLogin(request: claim.request, method: claim.provider))
        }
        try await store.append(AuditEvent(
            occurredAt: now, action: .memberClaimLinked, outcome: "success", actorUserID: UUID(uuidString: user.id),
            subjectType: "member_record", subjectID: records.first?.id, source: claim.source,
            details: ["claim": row.id, "records": records.map(\.id).joined(separator: ",")]
        ))
        // The address the code went to hears of the link, so a code given away does not go unnoticed.
        if let address = records.first?.email {
            await mailer.notify(.membershipLinked, to: address, language: claim.request.language, logger: logger)
        }
        let provided: ProvidedPersonnummer = if let personnummer { .number(personnummer) } else if claim.payload.provided == "absent" { .absent } else { .invalid }
        let method = LoginCompletion.Method(provider: claim.provider, amr: claim.payload.amr, acr: claim.payload.acr, authTime: claim.payload.authTime)
        return .linked(PendingLogin(request: claim.request, method: claim.provider), user, method, provided)
    }

    /// The person gives up: the claim ends and the app hears `not_registered`.
    public func cancel(handle: String) async throws -> PendingLogin? {
        try await end(RefreshTokenSecret.hash(handle))
    }

    private func end(_ handleHash: Data) async throws -> PendingLogin? {
        guard let row = try await store.takeMembershipClaim(handleHash: handleHash), let claim = try? open(row) else { return nil }
        return PendingLogin(request: claim.request, method: claim.provider)
    }

    private func open(_ row: MembershipClaim) throws -> Claim {
        let payload = try JSONDecoder().decode(Payload.self, from: try cipher.open(row.payload, context: Self.context(row.id)))
        return Claim(request: payload.request, provider: payload.provider, payload: payload)
    }

    private static func context(_ id: String) -> String { SealingContext.membershipClaim(id) }

    /// Six digits from the system's secure generator.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }

    /// Bound to the claim, so a code's hash says nothing about another claim's.
    static func hash(_ code: String, claimID: String) -> Data {
        RefreshTokenSecret.hash("\(claimID):\(code)")
    }
}
