import ArgumentParser
import Foundation
import PortvaktKit
import PortvaktProtocol

/// Prints results as text in the user's language, or as one JSON object with `--json`.
struct Output {
    let json: Bool
    let language: Language

    /// A screen of the SDK: its title, message and banner (text), or its parts (JSON).
    func screen(_ model: ScreenModel, _ extra: [String: Any] = [:], more: [String] = []) {
        var object: [String: Any] = ["screen": model.kind.rawValue, "title": model.title]
        object["message"] = model.message
        object["message_id"] = model.messageID
        object["banner"] = model.banner
        object["actions"] = model.actions.map(\.id)
        emit(object.merging(extra) { $1 }, text: [model.message, model.banner].compactMap { $0 } + more)
    }

    /// A result: `text` lines for people, `object` for scripts.
    func emit(_ object: [String: Any], text: [String]) {
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            print(String(decoding: data, as: UTF8.self))
        } else {
            text.forEach { print($0) }
        }
    }

    /// Prints `message` and returns the exit code to throw.
    func fail(_ message: UserMessage, exit code: ExitCode) -> ExitCode {
        emit(["error": message.id, "message_id": message.id, "message": message.text(language)], text: [message.text(language)])
        return code
    }

    func fail(_ error: PortvaktError, exit code: ExitCode) -> ExitCode {
        fail(error.messageID.flatMap(UserMessage.init(rawValue:)) ?? (error.status == 404 ? .notFound : .loginFailed), exit: code)
    }
}
