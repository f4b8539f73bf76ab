/// Reed–Solomon error correction over GF(2⁸) with the QR Code polynomial x⁸+x⁴+x³+x²+1
/// (ISO/IEC 18004 §7.5.2): the error-correction codewords of one block.
enum ReedSolomon {
    /// Powers of α and their logarithms, built once.
    private static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), highest power first, its
    /// leading 1 left out.
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            // Multiply by (x + root): shift up one power, then add root times the old polynomial.
            var product = polynomial + [0]
            for (index, coefficient) in polynomial.enumerated() {
                product[index + 1] ^= multiply(coefficient, root)
            }
            polynomial = product
            root = multiply(root, 2)
        }
        return Array(polynomial.dropFirst())
    }

    /// The remainder of data·x^degree divided by the generator: the block's EC codewords.
    static func remainder(of data: some Sequence<UInt8>, generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder.removeFirst()
            remainder.append(0)
            for index in generator.indices {
                remainder[index] ^= multiply(generator[index], factor)
            }
        }
        return remainder
    }
}
