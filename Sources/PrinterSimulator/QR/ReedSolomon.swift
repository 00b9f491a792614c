/// Reed–Solomon error correction over GF(2⁸) with the QR code's field polynomial
/// x⁸ + x⁴ + x³ + x² + 1 (0x11D) and generator roots α⁰ … α^(n−1).
enum ReedSolomon {
    /// α^i for i in 0..<255, and the discrete logarithm of every non-zero element.
    private static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 255)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return tables.exp[(tables.log[Int(a)] + tables.log[Int(b)]) % 255]
    }

    /// The generator polynomial's coefficients after the leading 1, highest degree first.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients: [UInt8] = [1]
        for root in 0..<degree {
            // Multiply by (x − α^root); subtraction is XOR in GF(2⁸).
            var next = [UInt8](repeating: 0, count: coefficients.count + 1)
            for (index, coefficient) in coefficients.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, tables.exp[root])
            }
            coefficients = next
        }
        return Array(coefficients.dropFirst())
    }

    /// The `degree` error correction codewords for `data`: the remainder of data·x^degree
    /// divided by the generator polynomial.
    static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
        let generator = generator(degree: degree)
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree { remainder[index] ^= multiply(generator[index], factor) }
        }
        return remainder
    }
}
