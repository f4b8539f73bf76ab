import PortvaktDomain

extension LoginFlows {
    /// The brand a login page of this client shows: its one organisation's (client metadata
    /// `organisations`); nil for a client of every organisation or several.
    func brand(for request: AppAuthorizationRequest, _ completion: LoginCompletion) async -> BrandView? {
        await Brands(store: store).view(organisations: completion.policy(of: request.clientID).organisations)
    }
}
