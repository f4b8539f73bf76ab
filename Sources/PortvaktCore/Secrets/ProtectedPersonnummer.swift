import Foundation

/// A personnummer as the store keeps it: ciphertext to read it back, blind index to find it.
public struct ProtectedPersonnummer: Sendable, Hashable {
    public let sealed: SealedValue
    public let index: String

    public init(sealed: SealedValue, index: String) {
        self.sealed = sealed
        self.index = index
    }
}

extension ProtectedPersonnummer {
    /// The value of a row's three personnummer columns, when it has one.
    public init?(sealed: Data?, keyID: String?, index: String?) {
        guard let sealed, let keyID, let index else { return nil }
        self.init(sealed: SealedValue(keyID: keyID, combined: sealed), index: index)
    }
}
