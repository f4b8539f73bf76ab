import Foundation
import QRCode

/// Rasterises a symbol into a greyscale PNG for an independent decoder: `scale` pixels per
/// module and a four-module quiet zone. Written for the tests (no image package is available);
/// the deflate stream uses stored blocks, which every PNG reader accepts.
enum PNGRaster {
    static func png(_ code: QRCode, scale: Int = 4) -> Data {
        let quietZone = 4
        let side = (code.size + 2 * quietZone) * scale
        var pixels: [UInt8] = []
        pixels.reserveCapacity((side + 1) * side)
        for row in 0..<side {
            pixels.append(0) // filter type None
            for column in 0..<side {
                let dark = code.isDark(x: column / scale - quietZone, y: row / scale - quietZone)
                pixels.append(dark ? 0 : 255)
            }
        }
        var header = Data()
        header.appendBigEndian(UInt32(side))
        header.appendBigEndian(UInt32(side))
        header.append(contentsOf: [8, 0, 0, 0, 0]) // 8-bit greyscale, deflate, no filter, no interlace
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        file.append(chunk("IHDR", header))
        file.append(chunk("IDAT", zlibStored(pixels)))
        file.append(chunk("IEND", Data()))
        return file
    }

    private static func chunk(_ type: String, _ body: Data) -> Data {
        var chunk = Data()
        chunk.appendBigEndian(UInt32(body.count))
        let typed = Data(type.utf8) + body
        chunk.append(typed)
        chunk.appendBigEndian(crc32(typed))
        return chunk
    }

    /// RFC 1950 around RFC 1951 stored blocks.
    private static func zlibStored(_ bytes: [UInt8]) -> Data {
        var stream = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isLast = offset + length == bytes.count
            stream.append(isLast ? 1 : 0)
            stream.append(UInt8(length & 0xFF))
            stream.append(UInt8(length >> 8))
            stream.append(UInt8(~length & 0xFF))
            stream.append(UInt8((~length >> 8) & 0xFF))
            stream.append(contentsOf: bytes[offset..<(offset + length)])
            offset += length
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        stream.appendBigEndian((b << 16) | a)
        return stream
    }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
