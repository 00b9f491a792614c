import ArgumentParser
import ReaderSimulator

/// The codes `mpos reader emulate --barcode CODE[:SYMBOLOGY]` reads, in order.
struct EmulatedBarcodes {
    /// How long the emulated scanner takes to read the next code.
    static let interval = Duration.milliseconds(200)

    let codes: [(barcode: String, symbology: String)]

    /// Parses each `CODE[:SYMBOLOGY]` (the symbology after the last colon, EAN-13 when none),
    /// or fails naming the one that is malformed.
    init(_ arguments: [String]) throws {
        codes = try arguments.map { argument in
            var barcode = Substring(argument)
            var symbology: Substring = "EAN-13"
            if let colon = argument.lastIndex(of: ":") {
                barcode = argument[..<colon]
                symbology = argument[argument.index(after: colon)...]
            }
            guard !barcode.isEmpty, !symbology.isEmpty, argument.utf8.count <= Int(UInt16.max) else {
                throw CLIFailure(
                    "--barcode must be CODE or CODE:SYMBOLOGY, e.g. 4006381333931:EAN-13, not '\(argument)'")
            }
            return (String(barcode), String(symbology))
        }
    }

    /// Offers the codes to `reader` in order, one every ``interval``, each until its scanner is
    /// on to read it; returns when all were read or the caller is cancelled.
    func feed(to reader: SimulatedReader) async {
        for code in codes {
            repeat {
                do { try await Task.sleep(for: Self.interval) } catch { return }
            } while await !reader.scan(code.barcode, symbology: code.symbology)
        }
    }
}
