/// `GET /v1/me`: who is signed in, their organisations and roles, how this session was opened,
/// the home screen the app opens for them, notices to show once, and the brand of the app's client.
public struct MeResponse: Codable, Sendable, Hashable {
    public struct User: Codable, Sendable, Hashable {
        public let id: String
        public let name: String
        public let email: String?

        public init(id: String, name: String, email: String?) {
            self.id = id
            self.name = name
            self.email = email
        }
    }

    public struct Organisation: Codable, Sendable, Hashable {
        public let id: String
        public let slug: String
        public let name: String
        /// Role ids, such as `peer_mentor` (``RoleWords`` says them in words).
        public let roles: [String]

        public init(id: String, slug: String, name: String, roles: [String]) {
            self.id = id
            self.slug = slug
            self.name = name
            self.roles = roles
        }
    }

    /// How this session was opened.
    public struct Session: Codable, Sendable, Hashable {
        public let amr: [String]
        /// Seconds since 1970.
        public let authTime: Int
        /// The device key that unlocked the session, if one did.
        public let deviceId: String?

        public init(amr: [String], authTime: Int, deviceId: String?) {
            self.amr = amr
            self.authTime = authTime
            self.deviceId = deviceId
        }

        enum CodingKeys: String, CodingKey {
            case amr, authTime = "auth_time", deviceId = "device_id"
        }
    }

    /// Something to tell the user once, such as a personnummer that could not be retrieved.
    public struct Notice: Codable, Sendable, Hashable {
        /// A ``UserMessage`` id.
        public let messageID: String
        /// The message in the language `ui_locales` asked for.
        public let message: String

        public init(messageID: String, message: String) {
            self.messageID = messageID
            self.message = message
        }

        enum CodingKeys: String, CodingKey {
            case messageID = "message_id", message
        }
    }

    /// The organisation whose name, logo and colour the app's own screens show: its client's
    /// `brand` in the clients file. Every part but the slug and name is optional.
    public struct Brand: Codable, Sendable, Hashable {
        public let slug: String
        /// The brand's display name, else the organisation's name.
        public let name: String
        public let shortName: String?
        /// An absolute URL of the logo (SVG); it changes when the logo does.
        public let logoURI: String?
        /// `#rrggbb`, at least 4.5:1 against white.
        public let accentColour: String?
        /// Whom a member asks, as the organisation wrote it.
        public let supportContact: String?

        public init(slug: String, name: String, shortName: String?, logoURI: String?, accentColour: String?, supportContact: String?) {
            self.slug = slug
            self.name = name
            self.shortName = shortName
            self.logoURI = logoURI
            self.accentColour = accentColour
            self.supportContact = supportContact
        }

        enum CodingKeys: String, CodingKey {
            case slug, name, shortName = "short_name", logoURI = "logo_uri", accentColour = "accent_colour", supportContact = "support_contact"
        }
    }

    public let user: User
    public let organisations: [Organisation]
    /// A home screen id, such as `peer_mentor_activities`.
    public let homeScreen: String
    public let session: Session
    public let notices: [Notice]
    /// Nil: the app's client names no brand, or its organisation has none; the app shows its own.
    public let brand: Brand?

    public init(user: User, organisations: [Organisation], homeScreen: String, session: Session, notices: [Notice], brand: Brand? = nil) {
        self.user = user
        self.organisations = organisations
        self.homeScreen = homeScreen
        self.session = session
        self.notices = notices
        self.brand = brand
    }

    enum CodingKeys: String, CodingKey {
        case user, organisations, homeScreen = "home_screen", session, notices, brand
    }
}
