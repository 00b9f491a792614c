// libFuzzer entry point for the ReaderLink frame decoder, reassembly and message codec. Built
// and run by Scripts/fuzz.sh frame.
//
// Beyond "never crash, never hang", each input checks:
// - the streaming decoder gives the same frames whatever the chunk size (taken from the first
//   byte), holds at most one maximum frame, and every frame re-encodes to bytes that decode
//   to the same frame;
// - reassembly of those frames stays within the message limit;
// - the message decoder either throws `.malformed` or yields a message whose encoding is
//   exactly the input (the codec is canonical), and so for every reassembled message too.
import ReaderLink

func decodeAll(_ bytes: [UInt8], chunk: Int) -> [Frame] {
    var decoder = FrameDecoder()
    var frames: [Frame] = []
    var offset = 0
    repeat {
        let end = min(offset + chunk, bytes.count)
        decoder.append(bytes[offset..<end])
        offset = end
        while true {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                precondition(frame.payload.count <= Frame.maximumPayloadLength)
                frames.append(frame)
            } catch {
                continue
            }
        }
        precondition(decoder.bufferedByteCount < Frame.overhead + Frame.maximumPayloadLength)
    } while offset < bytes.count
    return frames
}

func checkMessage(_ bytes: [UInt8]) {
    guard let message = try? ReaderMessage(decoding: bytes) else { return }
    precondition(message.encoded() == bytes, "message codec is not canonical")
    _ = message.description
}

/// Runs one fuzz input through the frame decoder, reassembly and message codec.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = decodeAll(bytes, chunk: max(1, bytes.count))
    let chunked = decodeAll(bytes, chunk: 1 + Int(bytes.first ?? 0) % 23)
    precondition(whole == chunked, "chunk boundaries changed the decoded frames")

    var assembler = MessageAssembler()
    for frame in whole {
        var again = FrameDecoder()
        again.append(frame.encoded())
        precondition((try? again.nextFrame()) == frame, "re-encoded frame decodes differently")
        if let message = try? assembler.add(
            type: frame.type, flags: frame.flags.subtracting(.secured), sequence: frame.sequence,
            data: frame.payload)
        {
            precondition(message.data.count <= MessageAssembler.maximumMessageLength)
            checkMessage(message.data)
        }
    }
    checkMessage(bytes)
    return 0
}
