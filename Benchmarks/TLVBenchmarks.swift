import EMV

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shared 300-byte ICC blob: `$MPOS_BENCH_DIR/icc-300.hex`, else `../shared/bench`
/// beside the checkout, else the copy in the EMV test fixtures.
func loadICC300() throws -> [UInt8] {
    var candidates = ["../shared/bench/icc-300.hex", "Tests/EMVTests/Fixtures/icc-300.hex"]
    if let dir = getenv("MPOS_BENCH_DIR") { candidates.insert(String(cString: dir) + "/icc-300.hex", at: 0) }
    for path in candidates {
        guard let file = fopen(path, "r") else { continue }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return try Hex.decode(text)
    }
    throw BenchmarkInputMissing(name: "icc-300.hex", looked: candidates)
}

struct BenchmarkInputMissing: Error, CustomStringConvertible {
    let name: String
    let looked: [String]
    var description: String { "\(name) not found; looked in: \(looked.joined(separator: ", "))" }
}

func tlvBenchmarks() throws -> [Benchmark] {
    let blob = try loadICC300()
    let objects = try TLVTree(decoding: blob).objects
    return [
        Benchmark(name: "tlv.decode.icc300", unit: "ns") { count in
            var total = 0
            for _ in 0..<count {
                let tree = try TLVTree(decoding: blob)
                total &+= tree.count
            }
            return total
        },
        Benchmark(name: "tlv.walk.icc300", unit: "ns") { count in
            var total = 0
            for _ in 0..<count {
                try BERTLV.walk(blob) { field in total &+= field.length }
            }
            return total
        },
        Benchmark(name: "tlv.encode.icc300", unit: "ns") { count in
            var total = 0
            for _ in 0..<count {
                total &+= try TLV.encode(objects).count
            }
            return total
        },
    ]
}
