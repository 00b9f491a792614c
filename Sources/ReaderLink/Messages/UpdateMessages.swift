import MPOSCore

/// Which image an update replaces.
public enum UpdateSlot: UInt8, Sendable, Hashable, CaseIterable {
    /// The reader firmware.
    case firmware = 1
    /// The configuration (EMV parameters, keys).
    case configuration = 2
}

/// Starts an update image transfer.
public struct UpdateBegin: Sendable, Hashable {
    /// The slot written.
    public var slot: UpdateSlot
    /// The image size in bytes.
    public var size: UInt32
    /// The image's SHA-256 (32 bytes), checked by `updateVerify`.
    public var sha256: [UInt8]
    /// The image's version.
    public var version: String
    /// The gateway's Ed25519 signature over `UpdateSigning.message(…)` (64 bytes): the reader
    /// checks it, for its own model and channel, before it switches slots.
    public var signature: [UInt8]

    /// Creates an update start.
    public init(slot: UpdateSlot, size: UInt32, sha256: [UInt8], version: String, signature: [UInt8] = []) {
        self.slot = slot
        self.size = size
        self.sha256 = sha256
        self.version = version
        self.signature = signature
    }
}

/// The reader's answer to an update step: how far it has the image, and the step's status.
public struct UpdateAck: Sendable, Hashable {
    /// Bytes of the image held so far (the offset the next chunk must start at); a transfer
    /// resumed after a dropped link continues from here.
    public var offset: UInt32
    /// `success`, or why the step failed.
    public var status: ReaderStatusCode

    /// Creates an update acknowledgement.
    public init(offset: UInt32, status: ReaderStatusCode) {
        self.offset = offset
        self.status = status
    }
}
