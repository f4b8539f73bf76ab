import PortvaktModels

/// A verified DPoP proof (RFC 9449) the grant is to be bound to: its key's thumbprint, and the
/// record of its `jti` that the grant's own transaction stores, so no instance accepts it again.
public struct ProofOfPossession: Sendable {
    public let key: String
    public let record: DPoPProofRecord

    public init(key: String, record: DPoPProofRecord) {
        self.key = key
        self.record = record
    }
}
