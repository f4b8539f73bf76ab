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
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
