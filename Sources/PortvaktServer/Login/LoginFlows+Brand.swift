import PortvaktDomain

extension LoginFlows {
    /// The brand a login page of this client shows: its one organisation's (client metadata
    /// `organisations`); nil for a client of every organisation or several, and for a third
    /// party's, which never speaks in an organisation's name.
    func brand(for request: AppAuthorizationRequest, _ completion: LoginCompletion) async -> BrandView? {
        let policy = completion.policy(of: request.clientID)
        guard policy.firstParty else { return nil }
        return await Brands(store: store).view(organisations: policy.organisations)
    }
}
