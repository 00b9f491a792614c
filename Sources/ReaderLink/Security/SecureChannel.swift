import Crypto

/// The labels and derivations of pairing and the session keys (docs/reader-protocol.md,
/// "Pairing").
enum PairingCrypto {
    static let nonceLength = 32
    static let proofLength = 32
    static let macLength = 16
    static let counterLength = 8

    static func nonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<nonceLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// HMAC-SHA256(secret, label ‖ offered versions count ‖ offered versions ‖ chosen version ‖
    /// SDK nonce ‖ reader nonce).
    static func proof(
        role: String, secret: SharedSecret, offered: [UInt8], chosen: UInt8, sdkNonce: [UInt8],
        deviceNonce: [UInt8]
    ) -> [UInt8] {
        var message = Array("MPOSKit ReaderLink v1 \(role) proof".utf8)
        message.append(UInt8(offered.count))
        message += offered
        message.append(chosen)
        message += sdkNonce
        message += deviceNonce
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret.bytes)))
    }

    /// One key per direction: HKDF-SHA256(ikm: secret, salt: SDK nonce ‖ reader nonce, info: label).
    static func sessionKeys(secret: SharedSecret, sdkNonce: [UInt8], deviceNonce: [UInt8])
        -> (sdkToDevice: SymmetricKey, deviceToSDK: SymmetricKey)
    {
        let salt = sdkNonce + deviceNonce
        func derive(_ label: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: secret.bytes), salt: salt, info: Array(label.utf8),
                outputByteCount: 32)
        }
        return (derive("MPOSKit ReaderLink v1 sdk->reader"), derive("MPOSKit ReaderLink v1 reader->sdk"))
    }

    static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

/// Per-direction counters and MACs after pairing. A secured payload is counter (UInt64,
/// big-endian) ‖ data ‖ first 16 bytes of HMAC-SHA256(key, header ‖ counter ‖ data), where
/// header is the frame's bytes 2 ..< 9. Counters start at 0 and increase by exactly one.
struct SecureChannel: Sendable {
    let sendKey: SymmetricKey
    let receiveKey: SymmetricKey
    /// HMAC states already keyed: each frame copies one instead of keying a new HMAC.
    private let sendMAC: KeyedHMAC
    private let receiveMAC: KeyedHMAC
    private(set) var sendCounter: UInt64 = 0
    private(set) var receiveCounter: UInt64 = 0

    init(sendKey: SymmetricKey, receiveKey: SymmetricKey) {
        self.sendKey = sendKey
        self.receiveKey = receiveKey
        sendMAC = KeyedHMAC(key: sendKey)
        receiveMAC = KeyedHMAC(key: receiveKey)
    }

    static let overhead = PairingCrypto.counterLength + PairingCrypto.macLength
    static let maximumData = Frame.maximumPayloadLength - overhead

    mutating func seal(type: FrameType, flags: FrameFlags, sequence: UInt16, data: some Collection<UInt8>)
        -> Frame
    {
        var payload: [UInt8] = []
        payload.reserveCapacity(data.count + Self.overhead)
        let counter = sendCounter
        sendCounter += 1
        for shift in stride(from: 56, through: 0, by: -8) {
            payload.append(UInt8((counter >> UInt64(shift)) & 0xFF))
        }
        payload.append(contentsOf: data)
        var frame = Frame(type: type, flags: flags.union(.secured), sequence: sequence, payload: payload)
        // The header's length field already counts the MAC that is appended below.
        frame.payload.append(contentsOf: [UInt8](repeating: 0, count: PairingCrypto.macLength))
        let header = frame.authenticatedHeader
        frame.payload.removeLast(PairingCrypto.macLength)
        frame.payload.append(contentsOf: Self.mac(sendMAC, header: header, body: payload[...]))
        return frame
    }

    /// The frame's data, after checking its MAC and counter. Throws `.integrity`.
    mutating func open(_ frame: Frame) throws(ReaderLinkError) -> ArraySlice<UInt8> {
        guard frame.flags.contains(.secured) else {
            throw .integrity(detail: "unsecured frame after pairing")
        }
        guard frame.payload.count >= Self.overhead else {
            throw .integrity(detail: "secured frame too short")
        }
        let macStart = frame.payload.count - PairingCrypto.macLength
        let body = frame.payload[..<macStart]
        let expected = Self.mac(receiveMAC, header: frame.authenticatedHeader, body: body)
        guard PairingCrypto.constantTimeEqual(expected, frame.payload[macStart...]) else {
            throw .integrity(detail: "frame authentication failed")
        }
        let counter = body.prefix(PairingCrypto.counterLength).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard counter == receiveCounter else {
            throw .integrity(
                detail: counter < receiveCounter
                    ? "replayed frame (counter \(counter))"
                    : "frame counter skipped to \(counter), expected \(receiveCounter)")
        }
        receiveCounter += 1
        return body.dropFirst(PairingCrypto.counterLength)
    }

    private static func mac(_ keyed: KeyedHMAC, header: [UInt8], body: ArraySlice<UInt8>) -> [UInt8] {
        Array(keyed.authenticationCode(header, body).prefix(PairingCrypto.macLength))
    }
}

/// HMAC-SHA256 (RFC 2104) with its two keyed hash states made once: a frame's code copies
/// them and feeds raw buffers to SHA-256. `HMAC<SHA256>` gives the same bytes (a test checks),
/// but its generic `update(data:)` walks `DataProtocol` regions and looked up generic
/// metadata per call, which `perf` put at about 3 % of a sale's CPU.
struct KeyedHMAC: Sendable {
    /// SHA-256 after absorbing key ⊕ ipad, and after key ⊕ opad.
    private let inner: SHA256
    private let outer: SHA256

    init(key: SymmetricKey) {
        let blockSize = 64
        var block = key.withUnsafeBytes { bytes -> [UInt8] in
            bytes.count > blockSize ? Array(SHA256.hash(data: bytes)) : Array(bytes)
        }
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256()
        var outer = SHA256()
        block.map { $0 ^ 0x36 }.withUnsafeBytes { inner.update(bufferPointer: $0) }
        block.map { $0 ^ 0x5C }.withUnsafeBytes { outer.update(bufferPointer: $0) }
        self.inner = inner
        self.outer = outer
    }

    /// The 32-byte code of the concatenation of `parts`.
    func authenticationCode(_ parts: ArraySlice<UInt8>...) -> [UInt8] {
        var inner = self.inner
        for part in parts { part.withUnsafeBytes { inner.update(bufferPointer: $0) } }
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize().withUnsafeBytes { Array($0) }
    }

    /// The code of `header` followed by `body`.
    func authenticationCode(_ header: [UInt8], _ body: ArraySlice<UInt8>) -> [UInt8] {
        authenticationCode(header[...], body)
    }
}
