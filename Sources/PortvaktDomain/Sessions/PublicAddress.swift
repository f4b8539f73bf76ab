import Synchronization

/// The URL users and apps reach the server at, which is also the issuer of its tokens. Known
/// from configuration, or, when the server listens on port 0, only once it is listening.
public final class PublicAddress: Sendable {
    private let url: Mutex<String>

    public init(_ url: String) {
        self.url = Mutex(url)
    }

    public var current: String { url.withLock { $0 } }

    public func set(_ newURL: String) {
        url.withLock { $0 = newURL }
    }
}
