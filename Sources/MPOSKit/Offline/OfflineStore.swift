import Crypto
import Foundation
import GatewayAPI
import MPOSCore

/// The offline store: an append-only file of fixed-size slots, each sealed on its own with
/// AES-GCM (see docs/offline-payments.md for the layout).
///
/// A slot holds either a stored sale or the mark that one was forwarded. Because every slot
/// is authenticated alone (its header, with the record's id, is the associated data) and its
/// padding must be zero, a bit flip anywhere in the file damages exactly the slot it falls
/// in: that slot is reported, the others still read. Appends are synced before they return;
/// a batch of slots is written and synced together.
actor OfflineStore {
    /// The size of every slot, bytes.
    static let slotSize = 4096
    /// Magic (4), kind (1), reserved (3), record id (16), sealed length (4).
    static let headerSize = 28
    static let magic: [UInt8] = Array("MPO1".utf8)

    enum Kind: UInt8 { case payment = 1, forwarded = 2, authorization = 3 }

    /// What the file holds.
    struct Contents: Sendable {
        /// Stored sales in the order they were stored.
        var records: [OfflineRecord] = []
        /// Forward outcomes by stored id.
        var forwarded: [UUID: OfflineForwardOutcome] = [:]
        /// Slots that fail their check (offline data tampering), by index.
        var damagedSlots: [Int] = []
        /// The latest online login's offline authorization, if any (`OfflineAuthorization.swift`).
        var authorization: OfflineAuthorization?

        /// The stored sales not forwarded yet, in stored order.
        var pending: [OfflineRecord] { records.filter { forwarded[$0.id] == nil } }
    }

    let path: String
    private let keys: any OfflineStoreKeyProvider
    private var cachedKey: SymmetricKey?

    init(path: String, keys: any OfflineStoreKeyProvider) {
        self.path = path
        self.keys = keys
    }

    /// Appends a stored sale, synced before it returns.
    func append(_ record: OfflineRecord) throws(MPOSError) {
        try append(contentsOf: [record])
    }

    /// Appends stored sales in one write, synced once before it returns.
    func append(contentsOf records: [OfflineRecord]) throws(MPOSError) {
        try appendSlots(kind: .payment, records.map { ($0.id, $0) })
    }

    /// Appends the mark that a stored sale was forwarded, synced before it returns.
    func markForwarded(_ outcome: OfflineForwardOutcome) throws(MPOSError) {
        try markForwarded([outcome])
    }

    /// Appends the marks of a batch of forwards in one write, synced once: a crash before the
    /// sync loses the whole batch's marks, and those sales are forwarded again under their
    /// keys, which the gateway answers from the first time.
    func markForwarded(_ outcomes: [OfflineForwardOutcome]) throws(MPOSError) {
        try appendSlots(kind: .forwarded, outcomes.map { ($0.id, $0) })
    }

    /// Reads every slot; damaged ones are listed, never guessed at.
    func contents() throws(MPOSError) -> Contents {
        guard FileManager.default.fileExists(atPath: path) else { return Contents() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MPOSError.offlineStoreFailed.withMessage("The offline store \(path) cannot be read.")
        }
        let key = try storeKey()
        let bytes = [UInt8](data)
        let count = bytes.count / Self.slotSize
        var contents = Contents()
        for index in 0..<count {
            let slot = bytes[(index * Self.slotSize)..<((index + 1) * Self.slotSize)]
            // An unwritten last slot is an append a crash cut short; its sale was never reported.
            if index == count - 1, slot.allSatisfy({ $0 == 0 }) { continue }
            switch Self.open(slot, key: key) {
            case .payment(let record): contents.records.append(record)
            case .forwarded(let outcome): contents.forwarded[outcome.id] = outcome
            case .authorization(let authorization): contents.authorization = authorization
            case nil: contents.damagedSlots.append(index)
            }
        }
        return contents
    }

    /// Whether a stored sale (intact) was made with `key`: the store, not the journal's
    /// recovery, owns such an attempt.
    func holds(_ key: IdempotencyKey) throws(MPOSError) -> Bool {
        try contents().records.contains { $0.key == key }
    }

    // MARK: - Slots

    enum Opened {
        case payment(OfflineRecord), forwarded(OfflineForwardOutcome), authorization(OfflineAuthorization)
    }

    /// The slot's content, or nil when any check fails (magic, kind, length, zero padding,
    /// the tag, the id inside against the header's).
    static func open(_ slot: ArraySlice<UInt8>, key: SymmetricKey) -> Opened? {
        guard let (kind, id, plaintext) = unseal(slot, key: key) else { return nil }
        switch kind {
        // A slot that does not decode is reported as damaged (`contents()`), never guessed at.
        case .payment:
            guard let record = try? GatewayJSON.decoder.decode(OfflineRecord.self, from: plaintext),
                record.id == id
            else { return nil }
            return .payment(record)
        case .forwarded:
            // An outcome that does not decode is a damaged slot, reported as such below.
            guard let outcome = try? GatewayJSON.decoder.decode(OfflineForwardOutcome.self, from: plaintext),
                outcome.id == id
            else { return nil }
            return .forwarded(outcome)
        case .authorization:
            return openAuthorization(plaintext, id: id)
        }
    }

    /// The slot's kind, the id its header names and its plaintext, or nil when the header,
    /// the padding or the tag fails its check.
    static func unseal(_ slot: ArraySlice<UInt8>, key: SymmetricKey) -> (Kind, UUID, Data)? {
        let bytes = Array(slot)
        guard bytes.count == slotSize, Array(bytes[0..<4]) == magic, let kind = Kind(rawValue: bytes[4]),
            bytes[5..<8].allSatisfy({ $0 == 0 })
        else { return nil }
        let length = bytes[24..<28].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, headerSize + length <= slotSize,
            bytes[(headerSize + length)...].allSatisfy({ $0 == 0 }),
            // A seal that fails its check is damage, which the callers report.
            let box = try? AES.GCM.SealedBox(combined: bytes[headerSize..<(headerSize + length)]),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: bytes[0..<headerSize])
        else { return nil }
        return (kind, UUID(uuid: uuidTuple(Array(bytes[8..<24]))), plaintext)
    }

    /// A sealed slot for `value`.
    static func seal(kind: Kind, id: UUID, plaintext: Data, key: SymmetricKey) throws(MPOSError) -> [UInt8] {
        let sealedLength = 12 + plaintext.count + 16
        guard headerSize + sealedLength <= slotSize else {
            throw MPOSError.offlineStoreFailed.withMessage(
                "The payment is too large to store offline (\(plaintext.count) bytes; a slot holds "
                    + "\(slotSize - headerSize - 28)).")
        }
        let idBytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let lengthBytes = (0..<4).map { UInt8(truncatingIfNeeded: sealedLength >> (8 * (3 - $0))) }
        let header = magic + [kind.rawValue, 0, 0, 0] + idBytes + lengthBytes
        // Thrown below as the store's error; CryptoKit's own says no more.
        guard let box = try? AES.GCM.seal(plaintext, using: key, authenticating: header),
            let combined = box.combined
        else { throw MPOSError.offlineStoreFailed.withMessage("A record could not be sealed.") }
        var slot = header + Array(combined)
        slot += [UInt8](repeating: 0, count: slotSize - slot.count)
        return slot
    }

    private static func uuidTuple(_ b: [UInt8]) -> uuid_t {
        (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }

    func storeKey() throws(MPOSError) -> SymmetricKey {
        if let cachedKey { return cachedKey }
        let key = try keys.key()
        cachedKey = key
        return key
    }

    /// Appends one slot, synced before it returns.
    func appendSlot<Value: Encodable>(kind: Kind, id: UUID, value: Value) throws(MPOSError) {
        try appendSlots(kind: kind, [(id, value)])
    }

    /// Appends slots in one write, synced once before it returns.
    func appendSlots<Value: Encodable>(kind: Kind, _ values: [(UUID, Value)]) throws(MPOSError) {
        guard !values.isEmpty else { return }
        let key = try storeKey()
        var slots: [UInt8] = []
        slots.reserveCapacity(values.count * Self.slotSize)
        for (id, value) in values {
            let plaintext: Data
            do { plaintext = try GatewayJSON.encoder.encode(value) } catch {
                throw MPOSError.offlineStoreFailed.withMessage("A record could not be encoded.")
            }
            slots += try Self.seal(kind: kind, id: id, plaintext: plaintext, key: key)
        }
        // 0600 (its folder 0700) whatever the umask.
        do { try PrivateFile.prepare(path) } catch {
            throw MPOSError.offlineStoreFailed.withMessage("The offline store \(path) cannot be created.")
        }
        do {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            defer { try? handle.close() }  // Synced below; a failed close loses nothing.
            let end = try handle.seekToEnd()
            // A partial slot left by a crash mid-append is overwritten, keeping slots aligned.
            try handle.seek(toOffset: end / UInt64(Self.slotSize) * UInt64(Self.slotSize))
            try handle.write(contentsOf: Data(slots))
            try handle.synchronize()
        } catch {
            throw MPOSError.offlineStoreFailed.withMessage(
                "The offline store \(path) could not be written: \(error).")
        }
    }
}
