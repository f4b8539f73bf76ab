import PortvaktProtocol
import Synchronization

/// The keys of DPoP proof headers read lately. A client writes the same header (`typ`, `alg`,
/// its `jwk`) into every proof, so its JSON and its key's point are read once, not per request.
/// Only public keys of headers that parsed are kept, at most `limit`; when full it starts over.
/// Nothing here is state another instance needs: a miss just reads the header again.
final class DPoPHeaderKeys: Sendable {
    private let keys = Mutex<[String: DevicePublicKey]>([:])
    private let limit: Int

    init(limit: Int = 4096) {
        self.limit = limit
    }

    func key(ofHeader segment: Substring) throws(DPoPProof.Problem) -> DevicePublicKey {
        let header = String(segment)
        if let key = keys.withLock({ $0[header] }) { return key }
        let key = try DPoPProof.key(ofHeader: segment)
        keys.withLock { keys in
            if keys.count >= limit { keys.removeAll(keepingCapacity: true) }
            keys[header] = key
        }
        return key
    }
}
