import Foundation

/// The BankID order on this phone: its polling, and an order the app was ended during (S3.3).
extension AuthDriver {
    /// S3.3: the order's session id in secure storage (with its start, for the 3 minutes), so an
    /// app that iOS ends while the member approves in the BankID app collects it at relaunch.
    func storeOrder() async {
        guard let orderSessionID else { return }
        try? await services.storage.write(orderSessionID, for: .bankIDSessionRef)
        try? await services.storage.writeDate(orderStartedAt, for: .bankIDOrderStartedAt)
    }

    func forgetStoredOrder() async {
        try? await services.storage.delete(.bankIDSessionRef)
        try? await services.storage.delete(.bankIDOrderStartedAt)
    }

    /// Collects an order started before the app was ended, at launch or when the BankID app's
    /// link returns (``PortvaktConfiguration/bankIDReturnURL``). Nothing happens without a stored
    /// order, while one runs, or with a session. An order that cannot finish (no verifier, no
    /// recorded start, past its 3 minutes) is cancelled at the server and forgotten.
    /// Returns when the order has ended (up to its 3 minutes).
    public func resumeStoredOrder() async {
        guard machine.mayResumeOrder else { return }
        let s = services
        // What cannot be read now (a locked phone) is tried at the next chance, not forgotten.
        let id: String?, verifier: Data?, started: Date?
        do {
            id = try await s.storage.readString(.bankIDSessionRef)
            verifier = try await s.storage.read(.pkceVerifier)
            started = try await s.storage.readDate(.bankIDOrderStartedAt)
        } catch {
            return
        }
        guard let id else { return }
        guard verifier != nil, let started, s.now().timeIntervalSince(started) < AuthMachine.bankIDOrderLimit else {
            try? await s.client.cancelBankIDOrder(sessionID: id)
            return await forgetStoredOrder()
        }
        // Looked at again after the reads: an order the member started meanwhile keeps its id.
        guard machine.mayResumeOrder else { return }
        orderSessionID = id
        orderStartedAt = started
        await send(.orderResumed(startedAt: started))
    }

    /// Whether `url` is the BankID app's way back: the configured return URL's scheme, host and
    /// path (its query and fragment are the BankID app's). A return URL at the redirect URI's own
    /// address is taken for the browser's answer.
    func isBankIDReturn(_ url: URL) -> Bool {
        let configuration = services.client.configuration
        guard let configured = configuration.bankIDReturnURL, let expected = URLComponents(string: configured),
              let given = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        func same(_ a: URLComponents, _ b: URLComponents) -> Bool {
            a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && a.port == b.port && a.path == b.path
        }
        if let redirect = URLComponents(string: configuration.redirectURI), same(redirect, expected) { return false }
        return same(expected, given)
    }

    /// The QR code's current frame into the machine, when it is shown; a lost answer keeps the last.
    func showCurrentQRFrame(sessionID: String) async {
        guard case .bankIDOrder(let progress) = machine.screen, progress.showsQRCode,
              let frame = try? await services.client.bankIDQRCode(sessionID: sessionID)
        else { return }
        _ = machine.handle(.qrFrameArrived(frame.data))
        observer?(machine)
    }

    /// Collects every two seconds until the order ends, is cancelled, or runs out of time (S3.7).
    func pollOrder(attempt mine: Int) async -> AuthEvent? {
        let s = services
        // The first frame at once (S3.5): a person waiting at another device sees the code
        // when the order starts, not a second later.
        if let id = orderSessionID { await showCurrentQRFrame(sessionID: id) }
        while orderIsRunning, mine == attempt, let id = orderSessionID {
            // Collect every two seconds; the QR code, while shown, changes every second (S3.5).
            for _ in 0..<2 {
                try? await s.sleep(.seconds(1))
                guard orderIsRunning, mine == attempt else { return nil }
                await showCurrentQRFrame(sessionID: id)
            }
            let effects = machine.handle(.tick(s.now()))
            observer?(machine)
            guard orderIsRunning else {
                for effect in effects { _ = await perform(effect, attempt: mine) }
                return nil
            }
            let status: PortvaktClient.BankIDOrderStatus
            do {
                status = try await s.client.collectBankIDOrder(sessionID: id)
            } catch let error as PortvaktError where error.isRefusal {
                return .orderFailed(error.message)  // an order the server no longer knows
            } catch {
                continue  // a lost answer: collect again, the 3-minute limit still holds
            }
            switch status {
            case .pending(let message):
                _ = machine.handle(.orderPending(message))
                observer?(machine)
            case .complete(let code):
                pendingCode = code
                return .orderCompleted
            case .failed(let message):
                return .orderFailed(message)
            }
        }
        return nil
    }
}
