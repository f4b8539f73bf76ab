import PortvaktDomain
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import PortvaktModels

/// The relying-party API v6 over HTTP: `POST {base}/auth`, `/collect`, `/cancel` with JSON
/// bodies. The relying party authenticates with its client certificate, which the HTTP client
/// presents (``BankIDOrderSettings/transportSecurity``), or with HTTP Basic (the sandbox).
struct BankIDOrderAPI: BankIDOrderService {
    let settings: BankIDOrderSettings
    let http: any OutboundHTTP
    /// For `collect` and `cancel`; `auth` has the shorter `settings.startTimeout`.
    let timeout: Duration

    func start(endUserIP: String) async throws(UpstreamError) -> StartedBankIDOrder {
        let data = try await post("auth", ["endUserIp": endUserIP], timeout: settings.startTimeout)
        guard let order = try? JSONDecoder().decode(StartedBankIDOrder.self, from: data), !order.orderRef.isEmpty else {
            throw .unavailable("auth answered with an unexpected body")
        }
        return order
    }

    func collect(orderRef: String) async throws(UpstreamError) -> CollectedBankIDOrder {
        let data = try await post("collect", ["orderRef": orderRef], timeout: timeout)
        guard let answer = try? JSONDecoder().decode(CollectAnswer.self, from: data) else {
            throw .unavailable("collect answered with an unexpected body")
        }
        switch answer.status {
        case "pending":
            return .pending(hintCode: answer.hintCode)
        case "failed":
            return .failed(hintCode: answer.hintCode)
        case "complete":
            guard let user = answer.completionData?.user else { throw .unavailable("collect completed without a user") }
            return .complete(personalNumber: user.personalNumber, name: user.name)
        default:
            throw .unavailable("collect answered an unknown status")
        }
    }

    func cancel(orderRef: String) async throws(UpstreamError) {
        _ = try await post("cancel", ["orderRef": orderRef], timeout: timeout)
    }

    private struct CollectAnswer: Decodable {
        struct CompletionData: Decodable {
            struct User: Decodable {
                let personalNumber: String
                let name: String?
            }

            let user: User
        }

        let status: String
        let hintCode: String?
        let completionData: CompletionData?
    }

    /// Its name in `/health/ready`'s providers.
    static let stateName = "bankid_order"

    /// One `collect` of an order that does not exist: the API's `invalidParameters` (400) shows
    /// that the TLS handshake, the relying party's certificate (or the sandbox's credentials)
    /// and the address are right, and starts nothing. A refused handshake or credentials, or an
    /// address that is not the API, is a setting to change (misconfigured); no answer or a
    /// server error may pass (unreachable).
    func check(now: Date) async -> ProviderState {
        let at = Int(now.timeIntervalSince1970)
        if let expiry = settings.certificateExpiry, expiry <= now {
            return ProviderState(state: .misconfigured, detail: "the client certificate expired on \(expiry.formatted(.iso8601)): renew it with BankID", checkedAt: at)
        }
        do {
            let (status, _) = try await exchange("collect", ["orderRef": UUID().uuidString.lowercased()], timeout: timeout)
            switch status {
            case 200, 400: return ProviderState(state: .reachable, detail: nil, checkedAt: at)
            case 401, 403:
                return ProviderState(state: .misconfigured, detail: "the order API refused the relying party (\(status)): its certificate or credentials are not the ones registered", checkedAt: at)
            case 408, 429, 500...: return ProviderState(state: .unreachable, detail: "collect answered \(status)", checkedAt: at)
            default:
                return ProviderState(state: .misconfigured, detail: "collect answered \(status): PORTVAKT_BANKID_ORDER_API_URL may not be the order API (…/rp/v6.0)", checkedAt: at)
            }
        } catch {
            switch error {
            case .handshake(let reason): return ProviderState(state: .misconfigured, detail: reason, checkedAt: at)
            case .upstream(let error): return ProviderState(state: .unreachable, detail: error.description, checkedAt: at)
            }
        }
    }

    private enum ExchangeFailure: Error {
        /// The TLS handshake failed: a certificate, the CA or the host name, a setting to change.
        case handshake(String)
        case upstream(UpstreamError)
    }

    private func post(_ method: String, _ body: [String: String], timeout: Duration) async throws(UpstreamError) -> Data {
        let status: UInt, data: Data
        do {
            (status, data) = try await exchange(method, body, timeout: timeout)
        } catch {
            switch error {
            case .handshake(let reason): throw .unavailable(reason)
            case .upstream(let error): throw error
            }
        }
        guard status < 500 else { throw .unavailable("\(method) answered \(status)") }
        guard status == 200 else { throw .rejected("\(method) refused the request (\(status))") }
        return data
    }

    private func exchange(_ method: String, _ body: [String: String], timeout: Duration) async throws(ExchangeFailure) -> (UInt, Data) {
        var request = HTTPClientRequest(url: "\(settings.baseURL)/\(method)")
        request.method = .POST
        if case .basic(let clientID, let secret) = settings.authentication {
            request.headers.add(name: "Authorization", value: "Basic \(Data("\(clientID):\(secret)".utf8).base64EncodedString())")
        }
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        guard let json = try? JSONEncoder().encode(body) else { throw .upstream(.unavailable("could not encode the request")) }
        request.body = .bytes(ByteBuffer(data: json))
        let response: HTTPClientResponse
        let data: Data
        do {
            response = try await http.execute(request, timeout: TimeAmount(timeout))
            data = Data(buffer: try await response.body.collect(upTo: 256 * 1024))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .upstream(.timedOut("\(method) did not answer within \(timeout)"))
        } catch let error as NIOSSLError where Self.isHandshakeFailure(error) {
            throw .handshake(handshakeFailure(error))
        } catch let error as BoringSSLError {
            throw .handshake(handshakeFailure(error))
        } catch let error as NIOSSLExtraError where error == .failedToValidateHostname {
            throw .handshake("the order API's certificate does not name its host (\(URL(string: settings.baseURL)?.host ?? settings.baseURL))")
        } catch {
            throw .upstream(.unavailable("no answer from the BankID order API (\(type(of: error)))"))
        }
        return (response.status.code, data)
    }

    /// A failed handshake, not a connection that dropped (`uncleanShutdown` and the like pass).
    private static func isHandshakeFailure(_ error: NIOSSLError) -> Bool {
        if case .handshakeFailed = error { return true }
        return false
    }

    /// Why the TLS handshake failed, in the operator's terms (the API's certificate, or ours).
    private func handshakeFailure(_ error: any Error) -> String {
        let reason = "\(error)"
        if reason.contains("CERTIFICATE_VERIFY_FAILED") {
            let trusted = settings.trustsOwnAuthority ? "the CA in PORTVAKT_BANKID_ORDER_CA_FILE" : "the system's trusted certificates (PORTVAKT_BANKID_ORDER_CA_FILE names BankID's CA)"
            return "the order API's certificate is not signed by \(trusted) or does not name its host"
        }
        if case .clientCertificate = settings.authentication {
            return "the TLS handshake with the order API failed: it refused the client certificate (PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE) or the connection (\(reason))"
        }
        return "the TLS handshake with the order API failed: it may require a client certificate (\(reason))"
    }
}
