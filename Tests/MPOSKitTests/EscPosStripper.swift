import MPOSKit

/// Removes from an ESC/POS job exactly the commands `EscPosEncoder` emits and returns the
/// printed text lines, decoded through the code page. Any other control byte is an error,
/// so a command the encoder starts emitting must be taught here first.
struct EscPosStripper {
    struct UnknownCommand: Error, CustomStringConvertible {
        let offset: Int
        let byte: UInt8
        var description: String { "unknown command byte \(byte) at \(offset)" }
    }

    /// The lines ended by LF, and the data of each QR code stored.
    static func strip(_ job: [UInt8], codePage: CodePage) throws -> (lines: [String], qrData: [[UInt8]]) {
        var lines: [String] = []
        var qrData: [[UInt8]] = []
        var current = ""
        var i = 0
        func byte(_ at: Int) throws -> UInt8 {
            guard at < job.count else { throw UnknownCommand(offset: at, byte: 0) }
            return job[at]
        }
        while i < job.count {
            let b = job[i]
            switch b {
            case 0x0A:
                lines.append(current)
                current = ""
                i += 1
            case 0x1B:
                switch try byte(i + 1) {
                case 0x40: i += 2  // ESC @
                case 0x74, 0x75, 0x61, 0x45, 0x64: i += 3  // ESC t, ESC u, ESC a, ESC E, ESC d
                case 0x70: i += 5  // ESC p m t1 t2
                default: throw UnknownCommand(offset: i, byte: b)
                }
            case 0x1D:
                switch try byte(i + 1) {
                case 0x21: i += 3  // GS !
                case 0x28 where try byte(i + 2) == 0x6B:  // GS ( k pL pH cn fn ...
                    let length = Int(try byte(i + 3)) + Int(try byte(i + 4)) * 256
                    if try byte(i + 6) == 80 { qrData.append(Array(job[(i + 8)..<(i + 5 + length)])) }
                    i += 5 + length
                case 0x76 where try byte(i + 2) == 0x30:  // GS v 0 m xL xH yL yH d...
                    let x = Int(try byte(i + 4)) + Int(try byte(i + 5)) * 256
                    let y = Int(try byte(i + 6)) + Int(try byte(i + 7)) * 256
                    i += 8 + x * y
                case 0x56 where try byte(i + 2) == 66: i += 4  // GS V 66 n
                case 0x56 where try byte(i + 2) == 1: i += 3  // GS V 1
                default: throw UnknownCommand(offset: i, byte: b)
                }
            case 0x10 where try byte(i + 1) == 0x04: i += 3  // DLE EOT n
            case 0x00..<0x20, 0x7F: throw UnknownCommand(offset: i, byte: b)
            default:
                current.append(codePage.character(for: b))
                i += 1
            }
        }
        guard i == job.count, current.isEmpty else { throw UnknownCommand(offset: i, byte: 0) }
        return (lines, qrData)
    }
}
