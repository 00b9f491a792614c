// libFuzzer entry point for the UDP discovery datagram codec (docs/reader-protocol.md §9).
// Built and run by Scripts/fuzz.sh discovery.
//
// Beyond "never crash", each input checks:
// - decoding either throws a `DiscoveryDatagramError` or yields a datagram whose encoding is
//   exactly the input (the layout has one encoding per datagram), and which decodes again to
//   the same datagram;
// - only inputs over the size limit are refused as too long;
// - the encoder, handed text fields cut from the input (any length, any characters), writes a
//   reply the decoder accepts whenever every field is non-empty and the port is not 0, with
//   each field cut at a character boundary to the field limit.
import ReaderLink

func checkDecoder(_ bytes: [UInt8]) {
    let datagram: DiscoveryDatagram
    do {
        datagram = try DiscoveryDatagram(decoding: bytes)
    } catch {
        if case .tooLong(let count) = error {
            precondition(count == bytes.count && count > DiscoveryDatagram.maximumLength)
        } else {
            precondition(bytes.count <= DiscoveryDatagram.maximumLength, "an oversized datagram got past the length check")
        }
        return
    }
    let encoded = datagram.encoded()
    precondition(encoded == bytes, "decoded datagram encodes to different bytes")
    let again: DiscoveryDatagram
    do {
        again = try DiscoveryDatagram(decoding: encoded)
    } catch {
        preconditionFailure("re-encoded datagram does not decode: \(error)")
    }
    precondition(again == datagram, "re-encoded datagram decodes differently")
}

/// Splits the input after its first 7 bytes (token, port, version) into three texts at two
/// `0x00` bytes, and announces them.
func checkEncoder(_ bytes: [UInt8]) {
    guard bytes.count >= 7 else { return }
    let token = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let port = UInt16(bytes[4]) << 8 | UInt16(bytes[5])
    let fields = bytes[7...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard fields.count == 3 else { return }
    let announcement = ReaderAnnouncement(
        name: fields[0], serialNumber: fields[1], model: fields[2], protocolVersion: bytes[6])
    let encoded = DiscoveryDatagram.reply(token: token, announcement: announcement, tcpPort: port).encoded()
    precondition(encoded.count <= DiscoveryDatagram.maximumLength, "a reply exceeds the datagram limit")
    let decoded: DiscoveryDatagram
    do {
        decoded = try DiscoveryDatagram(decoding: encoded)
    } catch {
        precondition(port == 0 || fields.contains(where: \.isEmpty), "a valid reply is refused: \(error)")
        return
    }
    guard case .reply(let gotToken, let got, let gotPort) = decoded else {
        preconditionFailure("a reply decodes as a probe")
    }
    precondition(gotToken == token && gotPort == port && got.protocolVersion == bytes[6])
    for (sent, received) in zip(fields, [got.name, got.serialNumber, got.model]) {
        let sentUTF8 = Array(sent.utf8), receivedUTF8 = Array(received.utf8)
        precondition(receivedUTF8.count <= DiscoveryDatagram.maximumFieldLength)
        precondition(sentUTF8.starts(with: receivedUTF8), "a field is not a prefix of what was sent")
        precondition(
            receivedUTF8.count == sentUTF8.count || receivedUTF8.count > DiscoveryDatagram.maximumFieldLength - 4,
            "a field was cut shorter than it needed to be")
    }
}

/// Runs one fuzz input through the discovery datagram decoder and encoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiscovery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkDecoder(bytes)
    checkEncoder(bytes)
    return 0
}
