import Crypto

/// The reader's two-slot (A/B) storage for firmware and for configuration, so that an update
/// survives interruption: a new image is staged into the inactive slot chunk by chunk,
/// verified against its SHA-256, and only then made active. An interrupted or failed transfer
/// leaves the active slot untouched.
public struct FirmwareSlots: Sendable, Hashable {
    /// What a pair of slots holds.
    public enum Component: String, Sendable, Hashable, CaseIterable {
        /// The reader's firmware.
        case firmware
        /// The reader's configuration (EMV parameters, keys' metadata, limits).
        case configuration
    }

    /// An installed or staged image.
    public struct Image: Sendable, Hashable {
        /// Version text, such as `"2.1.0"`.
        public let version: String
        /// The image bytes.
        public let bytes: [UInt8]

        /// An image.
        public init(version: String, bytes: [UInt8]) {
            self.version = version
            self.bytes = bytes
        }

        /// SHA-256 of ``bytes``.
        public var sha256: [UInt8] { FirmwareSlots.sha256(bytes) }
    }

    /// Why a transfer step was refused. Active slots never change on an error.
    public enum SlotError: Error, Sendable, Hashable {
        /// No transfer was begun for the component.
        case noTransfer
        /// The chunk does not continue the staged bytes; resume at `expectedOffset`.
        case offsetMismatch(expectedOffset: Int)
        /// The chunk runs past the announced size.
        case exceedsSize
        /// Verification was asked before all bytes arrived.
        case incomplete(received: Int, size: Int)
        /// The staged bytes do not hash to the announced SHA-256; the transfer is discarded.
        case digestMismatch
        /// Commit was asked before a successful verification.
        case notVerified
        /// The announced SHA-256 is not 32 bytes, or the size is negative.
        case invalidAnnouncement
    }

    struct Transfer: Sendable, Hashable {
        let version: String
        let size: Int
        let expectedSHA256: [UInt8]
        var received: [UInt8] = []
        var verified = false
    }

    struct Bank: Sendable, Hashable {
        var slots: [Image?]
        var active: Int
        var transfer: Transfer?
    }

    var banks: [Component: Bank]

    /// Slots with `firmware` and `configuration` active in slot 0 and slot 1 empty.
    public init(firmware: Image, configuration: Image) {
        banks = [
            .firmware: Bank(slots: [firmware, nil], active: 0),
            .configuration: Bank(slots: [configuration, nil], active: 0),
        ]
    }

    /// The active image.
    public func active(_ component: Component) -> Image? {
        banks[component].flatMap { $0.slots[$0.active] }
    }

    /// The index (0 or 1) of the active slot.
    public func activeSlot(_ component: Component) -> Int { banks[component]?.active ?? 0 }

    /// Where to resume an unfinished transfer (bytes staged so far), or `nil` when none.
    public func resumeOffset(_ component: Component) -> Int? { banks[component]?.transfer?.received.count }

    /// Starts a transfer of `size` bytes into the inactive slot. An unfinished transfer of the
    /// same image (version, size and digest) is kept, so the sender resumes at
    /// ``resumeOffset(_:)``; one of another image is replaced.
    /// - Throws: ``SlotError/invalidAnnouncement`` for a digest that is not 32 bytes.
    public mutating func beginTransfer(_ component: Component, version: String, size: Int, sha256: [UInt8])
        throws(SlotError)
    {
        guard sha256.count == 32, size >= 0 else { throw .invalidAnnouncement }
        if let current = banks[component]?.transfer, current.version == version, current.size == size,
            current.expectedSHA256 == sha256
        {
            return
        }
        banks[component]?.transfer = Transfer(version: version, size: size, expectedSHA256: sha256)
    }

    /// Stages a chunk at `offset`. A chunk may resend bytes already staged (they are replaced);
    /// it may not leave a gap.
    /// - Throws: ``SlotError/noTransfer``, ``SlotError/offsetMismatch(expectedOffset:)``,
    ///   ``SlotError/exceedsSize``.
    public mutating func stage(_ component: Component, offset: Int, chunk: [UInt8]) throws(SlotError) {
        guard var transfer = banks[component]?.transfer else { throw .noTransfer }
        guard offset >= 0, offset <= transfer.received.count else {
            throw .offsetMismatch(expectedOffset: transfer.received.count)
        }
        guard offset + chunk.count <= transfer.size else { throw .exceedsSize }
        transfer.received.removeSubrange(offset..<min(transfer.received.count, offset + chunk.count))
        transfer.received.insert(contentsOf: chunk, at: offset)
        transfer.verified = false
        banks[component]?.transfer = transfer
    }

    /// Checks the staged bytes against the announced SHA-256. On a mismatch the transfer is
    /// discarded.
    /// - Throws: ``SlotError/noTransfer``, ``SlotError/incomplete(received:size:)``,
    ///   ``SlotError/digestMismatch``.
    public mutating func verify(_ component: Component) throws(SlotError) {
        guard var transfer = banks[component]?.transfer else { throw .noTransfer }
        guard transfer.received.count == transfer.size else {
            throw .incomplete(received: transfer.received.count, size: transfer.size)
        }
        guard FirmwareSlots.sha256(transfer.received) == transfer.expectedSHA256 else {
            banks[component]?.transfer = nil
            throw .digestMismatch
        }
        transfer.verified = true
        banks[component]?.transfer = transfer
    }

    /// Writes the verified image into the inactive slot and makes it active.
    /// - Returns: the new active image.
    /// - Throws: ``SlotError/noTransfer`` or ``SlotError/notVerified``.
    @discardableResult
    public mutating func commit(_ component: Component) throws(SlotError) -> Image {
        guard var bank = banks[component], let transfer = bank.transfer else { throw .noTransfer }
        guard transfer.verified else { throw .notVerified }
        let image = Image(version: transfer.version, bytes: transfer.received)
        let target = 1 - bank.active
        bank.slots[target] = image
        bank.active = target
        bank.transfer = nil
        banks[component] = bank
        return image
    }

    /// A power loss or dropped link mid-transfer: the staged bytes are lost, the active slot
    /// stays.
    public mutating func interrupt(_ component: Component) {
        banks[component]?.transfer = nil
    }

    /// Makes the other slot active again, if it holds an image (after a bad update).
    /// - Returns: whether it switched.
    @discardableResult
    public mutating func rollBack(_ component: Component) -> Bool {
        guard var bank = banks[component], bank.slots[1 - bank.active] != nil, bank.transfer == nil else {
            return false
        }
        bank.active = 1 - bank.active
        banks[component] = bank
        return true
    }

    /// SHA-256 of bytes.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }
}
