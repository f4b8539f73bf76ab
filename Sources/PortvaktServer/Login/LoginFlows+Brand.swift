import PortvaktDomain

extension LoginFlows {
    /// The brand a login page of this client shows: its `brand`, by default its one
    /// organisation's (client metadata `organisations`); nil for a client of every organisation
    /// or several, and for a third party's, which never speaks in an organisation's name.
    func brand(for request: AppAuthorizationRequest, _ completion: LoginCompletion) async -> BrandView? {
        await Brands(store: store).view(for: completion.policy(of: request.clientID))
    }
}
