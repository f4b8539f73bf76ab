import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading from and writing to the terminal. Results go to stdout; prompts, progress and
/// status lines go to stderr, so `--json` output stays one clean object.
enum Terminal {
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }
    static var drawsInPlace: Bool { isatty(STDERR_FILENO) == 1 }

    static func status(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func ask(_ question: String) -> String {
        FileHandle.standardError.write(Data((question + " ").utf8))
        return readLine(strippingNewline: true) ?? ""
    }

    static func confirm(_ question: String) -> Bool {
        let answer = ask(question + " [y/n]").lowercased()
        return answer.hasPrefix("y") || answer.hasPrefix("j")
    }

    /// A secret from the terminal without echo, or one line of stdin when it is not a terminal.
    static func secret(_ prompt: String) -> String {
        guard isInteractive else { return readLine(strippingNewline: true) ?? "" }
        var old = termios()
        tcgetattr(STDIN_FILENO, &old)
        var silent = old
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &old)
            status("")
        }
        return ask(prompt)
    }
}
