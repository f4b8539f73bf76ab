import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import PortvaktCore
@testable import PortvaktServer
import PortvaktTestSupport
import ServiceLifecycle
import Testing

/// Three instances of Portvakt on one PostgreSQL behind one public address, every hop of
/// a login sent to a different instance, as a load balancer without sticky sessions would.
@Suite("Three instances on one PostgreSQL")
struct ClusterTests {
    @Test("Vipps, a BankID order (start, QR, collect, cancel), an unlock and a password lockout, each hop on another instance")
    func hopsAcrossInstances() async throws {
        try await Cluster.run { cluster in
            let (one, two, three) = (cluster.instances[0], cluster.instances[1], cluster.instances[2])

            // Vipps: authorize on one, the provider, the callback on two, the code redeemed on three.
            let login = AppLogin()
            let start = try await one.send(login.authorizeURL(method: "vipps"))
            let providerURL = try #require(start.location)
            let approved = try await one.send(providerURL + "&sandbox_user=kari&sandbox_action=approve")
            let callback = try await two.send(cluster.on(two, try #require(approved.location)))
            #expect(callback.status == 303, "\(callback.body.prefix(300))")
            let code = try #require(AppCallback(location: callback.location).code)
            let vipps = try await login.redeem(code, at: three)
            #expect(vipps.status == 200, "\(vipps.body)")
            #expect(try await login.redeem(code, at: one).status == 400, "a code is single-use on every instance")

            // A BankID order: started on one, QR from two, approved in the app, collected on three, redeemed on one.
            let orderLogin = AppLogin()
            let order = try await one.startedOrder(orderLogin)
            let qr = try await two.qrFrame(order.session, format: "data")
            #expect(qr.status == 200, "\(qr.body)")
            #expect(try await cluster.sandbox.bankIDApp(autoStartToken: order.autoStartToken, user: "ingrid", action: "approve").status == 200)
            let collected = try await three.collect(order.session)
            let orderCode = try #require(collected.string("code"), "\(collected.body)")
            let bankID = try await orderLogin.redeem(orderCode, at: one)
            #expect(bankID.status == 200, "\(bankID.body)")

            // Another order, cancelled on three, seen as cancelled on two.
            let cancelled = try await one.startedOrder(AppLogin())
            #expect(try await three.cancelOrder(cancelled.session).status == 200)
            let afterCancel = try await two.collect(cancelled.session)
            #expect(afterCancel.string("status") == "failed")
            #expect(afterCancel.string("hintCode") == "cancelled")

            // A device registered on one, its challenge from two, the unlock on three.
            let access = try #require(bankID.string("access_token"))
            let device = try await one.registerDevice(TestDevice(), token: access)
            let challenge = try await two.challengeValue(device.id, purpose: .unlock)
            let assertion = try device.assertion(challenge: challenge, purpose: .unlock, audience: cluster.publicURL)
            let unlocked = try await three.unlockGrant(assertion)
            #expect(unlocked.status == 200, "\(unlocked.body)")
            #expect(try await one.unlockGrant(assertion).status == 400, "the challenge was taken on another instance")

            // Five wrong passwords, spread over the instances, lock the account on all of them.
            _ = try await PortvaktApplication.setPassword(
                configuration: one.configuration, logger: TestDatabase.logger, email: "per@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            let flow = try await PasswordLoginTests.form(AppLogin(), at: one)
            for index in 0..<5 {
                let wrong = try await PasswordLoginTests.submit(flow, email: "per@sandbox.portvakt.test", password: "wrong \(index)", at: cluster.instances[index % 3])
                #expect(wrong.status == 401)
            }
            for instance in cluster.instances {
                let locked = try await PasswordLoginTests.submit(flow, email: "per@sandbox.portvakt.test", password: PasswordLoginTests.password, at: instance)
                #expect(locked.status == 429, "locked on every instance")
            }
        }
    }

    @Test("A passkey's challenge given by one instance is answered on another, and two answers at once on two instances sign in once")
    func passkeyAcrossInstances() async throws {
        try await Cluster.run { cluster in
            let (one, two, three) = (cluster.instances[0], cluster.instances[1], cluster.instances[2])
            // The first instance under the public address, as the browser sees it.
            let front = one.at(cluster.publicURL)
            let kari = try await PortalTests.signIn(front, person: "kari", method: "vipps").cookie
            let added = try await PasskeyTests.register(front, cookie: kari)
            #expect(added.reply.status == 303, "\(added.reply.body.prefix(300))")
            let holder = try #require(added.holder)
            let flow = try await PasskeyTests.flow(one, AppLogin().authorizeURL(method: "passkey"))
            let form = try await PasskeyTests.signedForm(two, flow: flow, holder: holder, counter: 1, origin: cluster.publicURL)
            let answers = try await withThrowingTaskGroup(of: LiveBroker.Reply.self) { group in
                for instance in [three, one] { group.addTask { try await instance.send("/oauth/passkey", method: .POST, form: form) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 303 }.count == 1, "statuses: \(answers.map(\.status))")
            #expect(try await two.send("/oauth/passkey", method: .POST, form: form).status == 400, "used up on every instance")
        }
    }

    @Test("100 concurrent uses of one refresh token over three instances: one successor for all, no logout; the successor's use makes the old token a reuse that ends the session")
    func concurrentRefreshAcrossInstances() async throws {
        try await Cluster.run { cluster in
            let tokens = try await cluster.instances[0].tokens(provider: "vipps", user: "kari")
            let refreshToken = try #require(tokens["refresh_token"] as? String)
            let replies = try await withThrowingTaskGroup(of: LiveBroker.Reply.self) { group in
                for index in 0..<100 {
                    group.addTask { try await cluster.instances[index % 3].refresh(refreshToken) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "statuses: \(Set(replies.map(\.status)))")
            let successors = Set(replies.compactMap { $0.string("refresh_token") })
            #expect(successors.count == 1, "one successor chain")
            let successor = try #require(successors.first)
            #expect(try await cluster.instances[1].refresh(successor).status == 200)
            let reuse = try await cluster.instances[2].refresh(refreshToken)
            #expect(reuse.status == 400, "the old token after its successor was used is a reuse")
            #expect(try await cluster.instances[0].refresh(successor).status == 400, "and the session is over everywhere")
        }
    }
}

/// Three Portvakt instances on one new PostgreSQL database, one public address (the first
/// instance's, as a load balancer's would be), one standalone sandbox as BankID and Vipps, and
/// member systems of their own; the data directory (development keys) is shared.
struct Cluster: Sendable {
    let instances: [LiveBroker]
    let sandbox: LiveBroker
    let publicURL: String

    /// `url` (an address under the public URL) sent to `instance` instead.
    func on(_ instance: LiveBroker, _ url: String) -> String {
        url.hasPrefix(publicURL) ? instance.baseURL + url.dropFirst(publicURL.count) : url
    }

    static func run(_ body: @escaping @Sendable (Cluster) async throws -> Void) async throws {
        guard TestDatabase.postgresURL != nil else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "CI runs this against PostgreSQL")
            return
        }
        try await Sandbox.run { sandbox in
            let secrets = (vipps: randomToken(), bankID: randomToken(), orders: randomToken())
            let ports = Self.freePorts(3)
            // Named localhost, as `dev` is, so that passkeys work across the instances too.
            let publicURL = "http://localhost:\(ports[0])"
            for (provider, client, secret, callback) in [
                ("vipps", "cluster-vipps", secrets.vipps, "vipps"), ("bankid", "cluster-bankid", secrets.bankID, "bankid"),
                ("bankid", "cluster-orders", secrets.orders, "bankid"),
            ] {
                let registered = try await sandbox.api(.POST, "/sandbox/admin/clients", token: LiveBroker.adminToken, json: [
                    "provider": provider, "client_id": client, "client_secret": secret, "redirect_uris": ["\(publicURL)/oauth/callback/\(callback)"],
                ])
                try #require(registered.status == 201, "\(registered.body)")
            }
            try await MemberSystemReceiver.run(slow: [:]) { receiver in
                var settings = receiver.settings(dataDirectory: "portvakt-cluster-\(UUID().uuidString)")
                settings.merge([
                    "PORTVAKT_PUBLIC_URL": publicURL,
                    "PORTVAKT_VIPPS_DISCOVERY_URL": sandbox.baseURL + "/sandbox/vipps/access-management-1.0/access/.well-known/openid-configuration",
                    "PORTVAKT_VIPPS_CLIENT_ID": "cluster-vipps", "PORTVAKT_VIPPS_CLIENT_SECRET": secrets.vipps,
                    "PORTVAKT_BANKID_DISCOVERY_URL": sandbox.baseURL + "/sandbox/bankid/auth/realms/current/.well-known/openid-configuration",
                    "PORTVAKT_BANKID_CLIENT_ID": "cluster-bankid", "PORTVAKT_BANKID_CLIENT_SECRET": secrets.bankID,
                    "PORTVAKT_BANKID_ORDER_API_URL": sandbox.baseURL + "/sandbox/bankid/rp/v6.0",
                    "PORTVAKT_BANKID_ORDER_CLIENT_ID": "cluster-orders", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET": secrets.orders,
                ]) { $1 }
                try await TestDatabase.withServerDatabase(.postgres) { [settings] databaseURL in
                    try await serve(ports: ports, databaseURL: databaseURL, settings: settings, started: []) { instances in
                        try await body(Cluster(instances: instances, sandbox: sandbox, publicURL: publicURL))
                    }
                }
            }
        }
    }

    /// Starts an instance on each port, one after the other, then runs `body` with them all.
    private static func serve(
        ports: [Int], databaseURL: String?, settings: [String: String], started: [LiveBroker],
        _ body: @escaping @Sendable ([LiveBroker]) async throws -> Void
    ) async throws {
        guard let port = ports.first else { return try await body(started) }
        try await LiveBroker.serve(databaseURL: databaseURL, settings: settings.merging(["PORTVAKT_PORT": "\(port)"]) { $1 }, over: .socket) { broker in
            var instance = broker.at("http://127.0.0.1:\(port)")
            instance.loginCookies = started.first?.loginCookies ?? instance.loginCookies  // one browser reaches every instance
            try await serve(ports: Array(ports.dropFirst()), databaseURL: databaseURL, settings: settings, started: started + [instance], body)
        }
    }

    /// Ports nobody listens on now (asked of the system, then released).
    static func freePorts(_ count: Int) -> [Int] {
        (0..<count).map { _ in
            let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// The standalone sandbox (`portvakt-server sandbox`) on a loopback port.
    enum Sandbox {
        static func run(_ body: @escaping @Sendable (LiveBroker) async throws -> Void) async throws {
            let configuration = try TestServer.configuration(["PORTVAKT_PORT": "\(Cluster.freePorts(1)[0])", "PORTVAKT_SANDBOX_ADMIN_TOKEN": LiveBroker.adminToken])
            var logger = Logger(label: "sandbox")
            logger.logLevel = .critical
            let app = try SandboxServer.build(configuration: configuration, logger: logger)
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
            let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
            let url = "http://127.0.0.1:\(configuration.port)"
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await services.run() }
                let broker = LiveBroker(baseURL: url, http: NetworkHTTP(client: http), logs: LogSink(), configuration: configuration, clock: TestClock(), routes: [])
                var up = false
                for _ in 0..<100 where !up {
                    up = (try? await broker.send("/health/live").status) == 200
                    if !up { try await Task.sleep(for: .milliseconds(50)) }
                }
                do {
                    try #require(up, "the sandbox did not start")
                    try await body(broker)
                } catch {
                    await services.triggerGracefulShutdown()
                    try? await http.shutdown()
                    throw error
                }
                await services.triggerGracefulShutdown()
                try await http.shutdown()
                try await group.waitForAll()
            }
        }
    }
}

extension LiveBroker {
    /// This server reached at `url` (one instance of several behind the public address).
    func at(_ url: String) -> LiveBroker {
        LiveBroker(baseURL: url, http: http, logs: logs, configuration: configuration, clock: clock, routes: routes, declared: declared, loginCookies: loginCookies)
    }
}
