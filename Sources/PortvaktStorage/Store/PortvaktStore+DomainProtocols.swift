import PortvaktDomain

// Storage implements the domain's store protocols: each service names the few functions it uses,
// and this store has them all.

extension PortvaktStore: AccountAccessStore {}
extension PortvaktStore: AccountErasureStore {}
extension PortvaktStore: AccountMergeStore {}
extension PortvaktStore: AdministrationReadStore {}
extension PortvaktStore: AppDataStore {}
extension PortvaktStore: BankIDOrderStore {}
extension PortvaktStore: ConflictReviewStore {}
extension PortvaktStore: DeviceChallengeStore {}
extension PortvaktStore: DeviceUnlockStore {}
extension PortvaktStore: IdentityLinkStore {}
extension PortvaktStore: LoginCompletionStore {}
extension PortvaktStore: MailOutboxStore {}
extension PortvaktStore: MemberAdministrationStore {}
extension PortvaktStore: MemberDirectoryStore {}
extension PortvaktStore: MemberInvitationStore {}
extension PortvaktStore: MembershipClaimStore {}
extension PortvaktStore: MembershipEndingStore {}
extension PortvaktStore: MembershipSuspensionStore {}
extension PortvaktStore: PasskeyStore {}
extension PortvaktStore: PersonalDataStore {}
extension PortvaktStore: ProfileStore {}
extension PortvaktStore: SCIMTokenStore {}
extension PortvaktStore: SessionStore {}
extension PortvaktStore: ThrottleStore {}
extension PortvaktStore: TokenIssuerStore {}
extension PortvaktStore: OrganisationBrandStore {}
extension PortvaktStore: OrganisationBrandReadStore {}
