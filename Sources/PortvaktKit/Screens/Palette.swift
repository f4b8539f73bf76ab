/// The colours the SDK's views draw text in, chosen here so their contrast is tested (WCAG 2.2
/// 1.4.3: 4.5:1 for text) instead of taken from a system red (about 3.5:1 on white).
public enum Palette {
    /// An sRGB colour, 0–255 per channel.
    public struct Colour: Sendable, Hashable {
        public let red: UInt8, green: UInt8, blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// WCAG 2.2's relative luminance.
        public var luminance: Double {
            func linear(_ channel: UInt8) -> Double {
                let c = Double(channel) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        }

        /// WCAG 2.2's contrast ratio, 1 to 21.
        public func contrast(with other: Colour) -> Double {
            let (a, b) = (luminance, other.luminance)
            return (max(a, b) + 0.05) / (min(a, b) + 0.05)
        }
    }

    /// Error text on the light background.
    public static let errorOnLight = Colour(red: 0xB0, green: 0x1E, blue: 0x1E)
    /// Error text on the dark background.
    public static let errorOnDark = Colour(red: 0xFF, green: 0x8A, blue: 0x80)
    public static let lightBackground = Colour(red: 0xFF, green: 0xFF, blue: 0xFF)
    /// iOS's dark `systemBackground` is black; grouped backgrounds are lighter, up to #2C2C2E.
    public static let darkBackground = Colour(red: 0x2C, green: 0x2C, blue: 0x2E)
    /// The buttons' colour on the light background (white text on it: 6.4:1); the system blue
    /// gives 4.0:1, and `.secondary` as a tint about 3.4:1.
    public static let actionOnLight = Colour(red: 0x0B, green: 0x57, blue: 0xD0)
    /// On the dark background (black text on it: 10:1).
    public static let actionOnDark = Colour(red: 0x8A, green: 0xB4, blue: 0xF8)

    /// How a button is drawn: its text, its fill (nil: the background shows through) and its
    /// border. A prominent button is filled with the action colour; another has the action
    /// colour for its text and border on the background.
    public struct Button: Sendable, Hashable {
        public let text: Colour
        public let fill: Colour?
        public let border: Colour
    }

    public static func button(prominent: Bool, dark: Bool) -> Button {
        let action = dark ? actionOnDark : actionOnLight
        let onAction = dark ? Colour(red: 0, green: 0, blue: 0) : lightBackground
        return prominent ? Button(text: onAction, fill: action, border: action) : Button(text: action, fill: nil, border: action)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
