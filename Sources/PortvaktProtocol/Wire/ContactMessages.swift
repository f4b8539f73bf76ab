/// A contact's sealed details: only `GET /v1/contacts/{id}` behind a `contacts.read` step-up opens them.
public struct ContactDetails: Codable, Sendable, Hashable {
    public let phone: String?
    public let address: String?
    public let note: String?

    public init(phone: String?, address: String?, note: String?) {
        self.phone = phone
        self.address = address
        self.note = note
    }
}

/// `POST /v1/contacts` (coordinators and administrators): a contact to add.
public struct NewContact: Codable, Sendable, Hashable {
    /// The organisation's slug.
    public let organisation: String
    public let displayName: String
    /// The user id of the peer mentor who supports the contact.
    public let assignedTo: String?
    public let details: ContactDetails

    public init(organisation: String, displayName: String, assignedTo: String?, details: ContactDetails) {
        self.organisation = organisation
        self.displayName = displayName
        self.assignedTo = assignedTo
        self.details = details
    }

    enum CodingKeys: String, CodingKey {
        case organisation, displayName = "display_name", assignedTo = "assigned_to", details
    }
}

/// A contact: in `GET /v1/contacts` without its details, from `GET /v1/contacts/{id}` with them.
public struct ContactInfo: Codable, Sendable, Hashable {
    public let id: String
    /// The organisation's slug.
    public let organisation: String
    public let displayName: String
    public let assignedTo: String?
    public let details: ContactDetails?

    public init(id: String, organisation: String, displayName: String, assignedTo: String?, details: ContactDetails?) {
        self.id = id
        self.organisation = organisation
        self.displayName = displayName
        self.assignedTo = assignedTo
        self.details = details
    }

    enum CodingKeys: String, CodingKey {
        case id, organisation, displayName = "display_name", assignedTo = "assigned_to", details
    }
}

/// `GET /v1/contacts[?organisation=slug]`: names only.
public struct ContactList: Codable, Sendable, Hashable {
    public let contacts: [ContactInfo]

    public init(contacts: [ContactInfo]) {
        self.contacts = contacts
    }
}
