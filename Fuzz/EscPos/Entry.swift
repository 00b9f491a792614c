// libFuzzer entry point for the printer emulator's ESC/POS decoder. Built and run by
// Scripts/fuzz.sh.
//
// Beyond "never crash", each input checks that the decoder agrees with itself:
// - decoding the input whole and in two pieces (split where the first byte says) gives the
//   same events once adjacent text is joined;
// - the buffer never holds more than the largest command the decoder stores;
// - the emulator lays out, answers and renders whatever it is given, and no printed line is
//   wider than the paper.
import PrinterSimulator

private func joined(_ events: [EscPosEvent]) -> [EscPosEvent] {
    var result: [EscPosEvent] = []
    for event in events {
        if case .text(let next) = event, case .text(let previous)? = result.last {
            result[result.count - 1] = .text(previous + next)
        } else {
            result.append(event)
        }
    }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEscPos(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limit = 4096
    var whole = EscPosDecoder(rasterByteLimit: limit)
    let wholeEvents = whole.feed(bytes) + whole.finish()
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var pieces = EscPosDecoder(rasterByteLimit: limit)
    let first = pieces.feed(bytes[..<split])
    precondition(pieces.bufferedByteCount <= max(limit, 65_538) + 8, "decoder buffer unbounded")
    let pieceEvents = first + pieces.feed(bytes[split...]) + pieces.finish()
    precondition(joined(wholeEvents) == joined(pieceEvents), "split input decoded differently")

    var emulator = PrinterEmulator(model: .paper58mm, rasterByteLimit: limit)
    let output = emulator.receive(bytes)
    let end = emulator.endOfStream()
    for job in output.jobs + end.jobs {
        precondition(job.lines.allSatisfy { $0.count <= PrinterModel.paper58mm.columns }, "line wider than the paper")
        _ = PageRenderer.render(job, model: .paper58mm).image.pbm
    }
    return 0
}
