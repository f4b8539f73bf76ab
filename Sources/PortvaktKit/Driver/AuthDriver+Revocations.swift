import Foundation

/// Logouts whose revocation waits for the network, and the proof key that signs them.
extension AuthDriver {
    /// Forgets the session here and revokes it at the server (kept for later without a network,
    /// ``lastLogoutReachedServer``); the proof key goes once nothing needs it.
    public func endSession() async {
        if let held = try? await services.tokens.logout() {
            lastLogoutReachedServer = await revocations.revoke(held)
        }
        await forgetProofKeyWhenDone()
    }

    /// How many logouts' revocations wait for the network.
    public func pendingRevocations() async -> Int {
        await revocations.count()
    }

    /// Sends the revocations a logout without network left (at launch, when the network is back,
    /// after a login). - Returns: how many still wait.
    @discardableResult
    public func sendPendingRevocations() async -> Int {
        guard await revocations.count() > 0 else { return 0 }
        let left = await revocations.retry()
        if left == 0 { lastLogoutReachedServer = true }
        await forgetProofKeyWhenDone()
        return left
    }

    /// The proof key signs every revocation: it goes at the last one, so no token of the ended
    /// sessions works anywhere, and stays while a session, a login under way (its pushed request
    /// and code are bound to the key) or a waiting revocation needs it.
    func forgetProofKeyWhenDone() async {
        let s = services
        guard await revocations.count() == 0, await s.tokens.holdsSession() == false,
              loginsStarting == 0, await loginUnderWay() == false
        else { return }
        await s.client.dpop?.forget()
    }

    /// Whether a login has stored its verifier and not yet exchanged its code (an unreadable
    /// storage counts as yes: the key stays).
    private func loginUnderWay() async -> Bool {
        do {
            return try await services.storage.read(.pkceVerifier) != nil
        } catch {
            return true
        }
    }
}
