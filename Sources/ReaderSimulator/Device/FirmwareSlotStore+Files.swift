import Crypto
import EMV
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's file formats and its durable writes.
extension FirmwareSlotStore {
    static let slotsFile = "slots.json"
    /// Offset (4), length (4) and digest (8) before each chunk of a staged log.
    static let recordHeader = 16

    struct Announcement: Codable {
        var version: String
        var size: Int
        var sha256: String
    }

    struct SavedImage: Codable {
        var version: String
        var size: Int
        var sha256: String
        var bytes: Data
    }

    struct SavedBank: Codable {
        var active: Int
        var slots: [SavedImage?]

        init(_ bank: FirmwareSlots.Bank) {
            active = bank.active
            slots = bank.slots.map { image in
                image.map {
                    SavedImage(
                        version: $0.version, size: $0.bytes.count, sha256: FirmwareSlotStore.hex($0.sha256),
                        bytes: Data($0.bytes))
                }
            }
        }

        /// The bank, or nil when an image does not match its recorded size and SHA-256 or the
        /// active slot is empty.
        var bank: FirmwareSlots.Bank? {
            guard slots.count == 2, (0...1).contains(active) else { return nil }
            var images: [FirmwareSlots.Image?] = []
            for saved in slots {
                guard let saved else {
                    images.append(nil)
                    continue
                }
                let image = FirmwareSlots.Image(version: saved.version, bytes: [UInt8](saved.bytes))
                guard image.bytes.count == saved.size, FirmwareSlotStore.hex(image.sha256) == saved.sha256
                else { return nil }
                images.append(image)
            }
            guard images[active] != nil else { return nil }
            return FirmwareSlots.Bank(slots: images, active: active)
        }
    }

    struct SavedSlots: Codable {
        var banks: [String: SavedBank]
    }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
    func headerFile(_ component: FirmwareSlots.Component) -> String { "\(component.rawValue).staged.json" }
    func logFile(_ component: FirmwareSlots.Component) -> String { "\(component.rawValue).staged.log" }

    /// Writes `data` to a temporary file, syncs it, renames it over `name` and syncs the
    /// directory: a reader killed at any point finds the old file or the new one, whole.
    func writeAtomically(_ data: Data, to name: String) throws(StoreError) {
        let target = url(name)
        let temporary = url(name + ".tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw StoreError(description: "cannot create \(temporary.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            throw StoreError(description: "cannot write \(temporary.path): \(error.localizedDescription)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            throw StoreError(description: "cannot rename \(temporary.path): errno \(errno)")
        }
        syncDirectory()
    }

    /// Appends `bytes` to `name` and syncs the file.
    func append(_ bytes: [UInt8], to name: String, creating: Bool) throws(StoreError) {
        let file = url(name)
        if creating {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw StoreError(description: "cannot create \(file.path)")
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
            try handle.synchronize()
        } catch {
            throw StoreError(description: "cannot append to \(file.path): \(error.localizedDescription)")
        }
        if creating { syncDirectory() }
    }

    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    static func recordDigest(offset: Int, chunk: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(data: uint32(offset))
        hash.update(data: chunk)
        return Array(hash.finalize().prefix(8))
    }

    static func uint32(_ value: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: value)
        return [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    static func readUInt32(_ bytes: [UInt8], at index: Int) -> Int {
        Int(bytes[index]) | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2]) << 16 | Int(bytes[index + 3])
            << 24
    }

    static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes).lowercased() }
}
