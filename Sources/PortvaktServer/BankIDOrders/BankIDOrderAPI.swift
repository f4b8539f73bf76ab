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

    private func post(_ method: String, _ body: [String: String], timeout: Duration) async throws(UpstreamError) -> Data {
        var request = HTTPClientRequest(url: "\(settings.baseURL)/\(method)")
        request.method = .POST
        if case .basic(let clientID, let secret) = settings.authentication {
            request.headers.add(name: "Authorization", value: "Basic \(Data("\(clientID):\(secret)".utf8).base64EncodedString())")
        }
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        guard let json = try? JSONEncoder().encode(body) else { throw .unavailable("could not encode the request") }
        request.body = .bytes(ByteBuffer(data: json))
        let response: HTTPClientResponse
        let data: Data
        do {
            response = try await http.execute(request, timeout: TimeAmount(timeout))
            data = Data(buffer: try await response.body.collect(upTo: 256 * 1024))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut("\(method) did not answer within \(timeout)")
        } catch let error as NIOSSLError {
            throw .unavailable(handshakeFailure(error))
        } catch let error as BoringSSLError {
            throw .unavailable(handshakeFailure(error))
        } catch let error as NIOSSLExtraError where error == .failedToValidateHostname {
            throw .unavailable("the order API's certificate does not name its host (\(URL(string: settings.baseURL)?.host ?? settings.baseURL))")
        } catch {
            throw .unavailable("no answer from the BankID order API (\(type(of: error)))")
        }
        guard response.status.code < 500 else { throw .unavailable("\(method) answered \(response.status.code)") }
        guard response.status == .ok else { throw .rejected("\(method) refused the request (\(response.status.code))") }
        return data
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
