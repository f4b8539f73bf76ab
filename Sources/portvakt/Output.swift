import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

/// Prints results as text in the user's language, or as one JSON object with `--json`.
struct Output {
    let json: Bool
    let language: Language

    /// A screen of the SDK: its title, message and banner (text), or its parts beside the command's own fields (JSON).
    func screen(_ model: ScreenModel, _ fields: some Encodable, more: [String] = []) {
        emit(Merged(ScreenFields(model), fields), text: [model.message, model.banner].compactMap { $0 } + more)
    }

    /// A result: `text` lines for people, `object` for scripts (`--json`, with sorted keys).
    func emit(_ object: some Encodable, text: [String]) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
            print(String(decoding: data, as: UTF8.self))
        } else {
            text.forEach { print($0) }
        }
    }

    /// Prints `message` and returns the exit code to throw.
    func fail(_ message: UserMessage, exit code: ExitCode) -> ExitCode {
        emit(Failure(error: message.id, messageID: message.id, message: message.text(language)), text: [message.text(language)])
        return code
    }

    func fail(_ error: PortvaktError, exit code: ExitCode) -> ExitCode {
        fail(error.messageID.flatMap(UserMessage.init(rawValue:)) ?? (error.status == 404 ? .notFound : .loginFailed), exit: code)
    }
}

/// The fields most commands end with: whether it worked, and for a screen whether it was locked or offline.
struct OutcomeFields: Encodable {
    let ok: Bool
    var locked: Bool?
    var offline: Bool?
}

/// Two values' fields in one JSON object (a screen's beside a command's). The encoder keeps one
/// object per level, so the second's keyed container adds to the first's.
struct Merged<First: Encodable, Second: Encodable>: Encodable {
    let first: First
    let second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    func encode(to encoder: any Encoder) throws {
        try first.encode(to: encoder)
        try second.encode(to: encoder)
    }
}

/// A screen as scripts read it: `screen=home`, `message_id`, `actions`.
private struct ScreenFields: Encodable {
    let screen: String
    let title: String
    let message: String?
    let messageID: String?
    let banner: String?
    let actions: [String]

    init(_ model: ScreenModel) {
        screen = model.kind.rawValue
        title = model.title
        message = model.message
        messageID = model.messageID
        banner = model.banner
        actions = model.actions.map(\.id)
    }

    enum CodingKeys: String, CodingKey {
        case screen, title, message, messageID = "message_id", banner, actions
    }
}

private struct Failure: Encodable {
    let error: String
    let messageID: String
    let message: String

    enum CodingKeys: String, CodingKey {
        case error, messageID = "message_id", message
    }
}
