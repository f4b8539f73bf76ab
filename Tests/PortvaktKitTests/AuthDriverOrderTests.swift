import Foundation
@testable import PortvaktKit
import PortvaktProtocol
import Testing

private typealias Endpoint = FakePortvakt.Endpoint

/// The BankID order as ``AuthDriver`` runs it (S3): the start, the polling and the QR code's
/// frames, the 3-minute limit, and the ways an order ends early. The server answers in the test
/// process, and the clock moves only when the driver sleeps, so no test waits real seconds.
@Suite("The BankID order, driven (S3)")
struct AuthDriverOrderTests {
    @Test("S3.3–S3.6: an order for BankID on another device shows the QR code at once and a new frame each second, is collected every 2 s, and a completed order signs in")
    func qrCodeOrderSignsIn() async throws {
        let phone = TestPhone()
        phone.server.on(Endpoint.startOrder, .order("order-1"))
        phone.server.on(Endpoint.qrCode, replies: (1...7).map { FakePortvakt.Reply.frame($0) })
        phone.server.on(Endpoint.collect, .pending("Start the BankID app"), .pending("Start the BankID app"), .complete(code: "order-code"))
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        await phone.launch()
        await phone.driver.send(.methodChosen(.bankIDOrder))

        // S3.5: the first frame as the order starts, then a new one every second.
        var frames: [String] = []
        for (second, progress) in phone.orderScreens {
            guard let data = progress.qrData, frames.last?.hasSuffix(": \(data)") != true else { continue }
            frames.append("\(Int(second)) s: \(data)")
        }
        #expect(frames == (0...6).map { "\($0) s: frame-\($0 + 1)" })
        let qr = Endpoint.qrCode, collect = Endpoint.collect
        #expect(phone.server.paths.filter { $0.hasPrefix("/bankid/") } == [Endpoint.startOrder, qr, qr, qr, collect, qr, qr, collect, qr, qr, collect], "collected at 2, 4 and 6 s")
        #expect(phone.orderScreens.contains { $0.progress.message == "Start the BankID app" }, "BankID's status is shown while the person waits")
        // S3.3: the order's session id is kept while it runs, and goes when it ends.
        #expect(await phone.storage.entries(for: .bankIDSessionRef) == ["bankid_session_ref_v1 = order-1", "bankid_session_ref_v1 deleted"])

        // The order's code is exchanged with the verifier its start was bound to.
        let stored = await phone.storage.entries(for: .pkceVerifier).first ?? ""
        let verifier = String(stored.split(separator: " ").last ?? "")
        let exchange = try #require(phone.server.requests(to: Endpoint.token).first)
        #expect(exchange.form["code"] == "order-code")
        #expect(!verifier.isEmpty && exchange.form["code_verifier"] == verifier)
        #expect(await phone.screen == .home(nil))
        #expect(await phone.driver.orderIsRunning == false)
        #expect(try await phone.storage.readString(.refreshToken) == "refresh-1")
        #expect(try await phone.storage.readString(.lastLoginMethod) == LoginMethod.bankIDOrder.rawValue, "S16.3: first on the list next time")
    }

    @Test("S3.4: with the BankID app on this phone no QR code is fetched, and a collect answer lost on the way is asked for again two seconds later")
    func bankIDAppOnThisPhone() async throws {
        let app = InstalledBankIDApp()
        let phone = TestPhone(opener: app)
        phone.server.on(Endpoint.startOrder, .order("order-1"))
        phone.server.on(Endpoint.collect, .offline, .complete(code: "order-code"))
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        await phone.launch()
        await phone.driver.send(.methodChosen(.bankIDOrder))

        #expect(app.opened.all.map(\.absoluteString) == ["bankid:///?autostarttoken=auto-order-1&redirect=null"])
        #expect(phone.server.requests(to: Endpoint.qrCode).isEmpty, "no QR code while the BankID app on this phone is used")
        #expect(phone.server.requests(to: Endpoint.collect).map(\.sessionID) == ["order-1", "order-1"])
        #expect(phone.clock.elapsed == 4, "the lost answer is asked for again at the next collect")
        #expect(await phone.screen == .home(nil))
    }

    @Test("S3.7: an order without a result within 3 minutes is cancelled at BankID, its session id cleared, and the person told it expired")
    func threeMinuteLimit() async throws {
        let phone = TestPhone(opener: InstalledBankIDApp())
        phone.server.on(Endpoint.startOrder, .order("order-1"))
        phone.server.on(Endpoint.collect, .pending("Open the BankID app"))
        await phone.launch()
        await phone.driver.send(.methodChosen(.bankIDOrder))

        #expect(await phone.screen == .methodSelection(.bankIDExpired))
        #expect(phone.clock.elapsed == AuthMachine.bankIDOrderLimit)
        #expect(phone.clock.sleeps == 180)
        #expect(phone.server.requests(to: Endpoint.collect).count == 89, "every 2 s until the limit, none at it")
        #expect(phone.server.requests(to: Endpoint.cancelOrder).map(\.sessionID) == ["order-1"])
        #expect(try await phone.storage.read(.bankIDSessionRef) == nil)
        #expect(await phone.driver.orderIsRunning == false)
    }

    @Test("S3.8: Cancel while a collect is on its way cancels the order at BankID and clears its session id, and no collect follows")
    func cancelDuringCollect() async throws {
        let phone = TestPhone()
        phone.server.on(Endpoint.startOrder, .order("order-1"))
        phone.server.on(Endpoint.qrCode, .frame(1))
        phone.server.on(Endpoint.collect, .pending("Start the BankID app"))
        let driver = phone.driver
        let running = Recorder<Bool>()
        phone.server.before(Endpoint.collect) {
            let isRunning = await driver.orderIsRunning
            running.append(isRunning)
            await driver.send(.cancelTapped)
        }
        await phone.launch()
        await driver.send(.methodChosen(.bankIDOrder))

        #expect(running.all == [true], "the order ran until the Cancel")
        #expect(await phone.screen == .methodSelection(nil))
        #expect(await driver.orderIsRunning == false)
        #expect(phone.server.requests(to: Endpoint.cancelOrder).map(\.sessionID) == ["order-1"])
        #expect(phone.server.requests(to: Endpoint.collect).count == 1, "the answer that came after the Cancel stopped the polling")
        #expect(phone.clock.elapsed == 2)
        #expect(await phone.storage.entries(for: .bankIDSessionRef) == ["bankid_session_ref_v1 = order-1", "bankid_session_ref_v1 deleted"])
    }

    @Test("S3.8: an order abandoned while it was starting is cancelled at BankID as soon as it exists, and is never shown or polled")
    func orderAbandonedWhileStarting() async throws {
        let held = PortvaktModelTests.HeldStorage()
        let phone = TestPhone(storage: held)
        phone.server.on(Endpoint.startOrder, .order("order-1"))
        await phone.launch()
        let starting = await phone.driver.submit(.methodChosen(.bankIDOrder))
        for _ in 0..<500 where await held.asked == false { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await held.asked, "the order's start began")
        await phone.driver.send(.cancelTapped)
        await held.release()
        await starting.value

        #expect(phone.server.requests(to: Endpoint.startOrder).count == 1)
        #expect(phone.server.requests(to: Endpoint.cancelOrder).map(\.sessionID) == ["order-1"])
        #expect(phone.server.requests(to: Endpoint.collect).isEmpty && phone.server.requests(to: Endpoint.qrCode).isEmpty)
        #expect(await phone.screen == .methodSelection(nil))
        #expect(phone.orderScreens.allSatisfy { $0.progress.startedAt == nil }, "never shown as started")
        #expect(await phone.storage.entries(for: .bankIDSessionRef) == ["bankid_session_ref_v1 deleted"], "its session id was never kept")
    }

    @Test("S3, S10.1: BankID refusing an order, at its start or while it runs, shows BankID's message and leaves nothing running")
    func bankIDRefuses() async throws {
        let refusedStart = TestPhone()
        refusedStart.server.on(Endpoint.startOrder, .refused(503, error: "temporarily_unavailable", message: .bankIDStartFailed))
        await refusedStart.launch()
        await refusedStart.driver.send(.methodChosen(.bankIDOrder))
        #expect(await refusedStart.screen == .methodSelection(.bankIDStartFailed))
        #expect(refusedStart.server.requests(to: Endpoint.collect).isEmpty)

        let failed = TestPhone(opener: InstalledBankIDApp())
        failed.server.on(Endpoint.startOrder, .order("order-1"))
        failed.server.on(Endpoint.collect, .failed(.bankIDCertificateError))
        await failed.launch()
        await failed.driver.send(.methodChosen(.bankIDOrder))
        #expect(await failed.screen == .methodSelection(.bankIDCertificateError))
        #expect(failed.server.requests(to: Endpoint.collect).count == 1)
        #expect(failed.server.requests(to: Endpoint.cancelOrder).isEmpty, "the order ended at BankID already")
        #expect(await failed.storage.entries(for: .bankIDSessionRef) == ["bankid_session_ref_v1 = order-1", "bankid_session_ref_v1 deleted"])
        #expect(await failed.driver.orderIsRunning == false)
    }

    /// A phone whose app iOS ended while the member approved in the BankID app: the order's
    /// session id, its start and the verifier are in storage, and the app starts again.
    private static func relaunchedDuringOrder(startedSecondsAgo: TimeInterval, returnURL: String? = nil) async throws -> TestPhone {
        let phone = TestPhone(bankIDReturnURL: returnURL)
        try await phone.storage.write("order-1", for: .bankIDSessionRef)
        try await phone.storage.writeDate(phone.clock.now.addingTimeInterval(-startedSecondsAgo), for: .bankIDOrderStartedAt)
        try await phone.storage.write("verifier-1", for: .pkceVerifier)
        phone.server.on(Endpoint.collect, .complete(code: "order-code"))
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        await phone.launch()
        return phone
    }

    @Test("S3.3: an order the app was ended during is collected by its stored session id (resumeStoredOrder, which start() calls), its code exchanged with the stored verifier, and the id cleared")
    func relaunchCollectsTheStoredOrder() async throws {
        let phone = try await Self.relaunchedDuringOrder(startedSecondsAgo: 30)
        #expect(await phone.screen == .methodSelection(nil))
        await phone.driver.resumeStoredOrder()

        #expect(phone.server.requests(to: Endpoint.collect).map(\.sessionID) == ["order-1"])
        #expect(phone.server.requests(to: Endpoint.token).first?.form["code_verifier"] == "verifier-1")
        #expect(await phone.screen == .home(nil))
        #expect(try await phone.storage.read(.bankIDSessionRef) == nil)
        #expect(try await phone.storage.read(.bankIDOrderStartedAt) == nil)
        #expect(try await phone.storage.readString(.lastLoginMethod) == LoginMethod.bankIDOrder.rawValue)
    }

    @Test("S3.2, S3.3: the BankID app's return link collects the stored order; the browser's callback at the same scheme does not", arguments: ["no.portvakt.app:/bankid-return", "https://app.portvakt.example/bankid-return"])
    func returnLinkCollectsTheStoredOrder(_ returnURL: String) async throws {
        let phone = try await Self.relaunchedDuringOrder(startedSecondsAgo: 30, returnURL: returnURL)
        await phone.driver.resume(from: try #require(URL(string: "no.portvakt.app:/oauth/callback?state=other&code=x")))
        #expect(phone.server.requests(to: Endpoint.collect).isEmpty, "an answer of the browser, not BankID's return")
        await phone.driver.resume(from: try #require(URL(string: returnURL + "?source=bankid")))
        #expect(phone.server.requests(to: Endpoint.collect).map(\.sessionID) == ["order-1"])
        #expect(await phone.screen == .home(nil))
    }

    @Test("S3.7: an order found past its 3 minutes, or without its recorded start (an earlier version's), is not shown or collected: it is cancelled at the server and forgotten", arguments: [181.0, nil])
    func orderThatCannotFinishIsForgotten(_ startedSecondsAgo: TimeInterval?) async throws {
        let phone = try await Self.relaunchedDuringOrder(startedSecondsAgo: startedSecondsAgo ?? 0)
        if startedSecondsAgo == nil { try await phone.storage.delete(.bankIDOrderStartedAt) }
        await phone.driver.resumeStoredOrder()
        #expect(await phone.screen == .methodSelection(nil))
        #expect(!phone.seen.all.contains { if case .bankIDOrder = $0.machine.screen { true } else { false } }, "no order screen for an order that cannot finish")
        #expect(phone.server.requests(to: Endpoint.collect).isEmpty)
        #expect(phone.server.requests(to: Endpoint.cancelOrder).map(\.sessionID) == ["order-1"])
        #expect(try await phone.storage.read(.bankIDSessionRef) == nil)
        #expect(try await phone.storage.read(.bankIDOrderStartedAt) == nil)
    }

    @Test("S3.7: an order the server no longer knows (404, Portvakt's own refusal) ends at the first collect with the server's message; a lost answer is asked again")
    func orderTheServerForgotEnds() async throws {
        let phone = try await Self.relaunchedDuringOrder(startedSecondsAgo: 30)
        phone.server.on(Endpoint.collect, .offline, .refused(404, error: "invalid_request", message: .bankIDOrderNotFound))
        await phone.driver.resumeStoredOrder()
        #expect(await phone.screen == .methodSelection(.bankIDOrderNotFound))
        #expect(phone.server.requests(to: Endpoint.collect).count == 2)
        #expect(try await phone.storage.read(.bankIDSessionRef) == nil)
    }

    @Test("A BankID return URL at the redirect URI's own address is taken for the browser's answer, never for the order's return")
    func returnURLAtTheRedirectAddressIsIgnored() async throws {
        let phone = try await Self.relaunchedDuringOrder(startedSecondsAgo: 30, returnURL: "no.portvakt.app:/oauth/callback")
        await phone.driver.resume(from: try #require(URL(string: "no.portvakt.app:/oauth/callback?state=other&code=x")))
        #expect(phone.server.requests(to: Endpoint.collect).isEmpty)
        #expect(await phone.screen == .methodSelection(nil))
    }

    @Test("A browser login started after an order the app was ended during forgets that order, whose verifier it replaces")
    func browserLoginForgetsTheStoredOrder() async throws {
        let phone = try await Self.relaunchedDuringOrder(startedSecondsAgo: 30)
        phone.server.on(Endpoint.pushedRequest, .pushed)
        await phone.driver.send(.methodChosen(.vipps))
        #expect(try await phone.storage.read(.bankIDSessionRef) == nil)
        await phone.driver.resumeStoredOrder()
        #expect(phone.server.requests(to: Endpoint.collect).isEmpty)
    }

    @Test("Without its verifier a stored order cannot finish: it is forgotten and the method selection stays")
    func storedOrderWithoutVerifierIsForgotten() async throws {
        let phone = TestPhone()
        try await phone.storage.write("order-1", for: .bankIDSessionRef)
        await phone.launch()
        await phone.driver.resumeStoredOrder()
        #expect(await phone.screen == .methodSelection(nil))
        #expect(phone.server.requests(to: Endpoint.collect).isEmpty)
        #expect(try await phone.storage.read(.bankIDSessionRef) == nil)
    }
}
