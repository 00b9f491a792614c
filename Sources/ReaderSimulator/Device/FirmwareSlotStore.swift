import EMV
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The simulated reader's flash: its firmware and configuration slots, kept in a directory so
/// that the emulator survives `kill -9` at any point with the active images intact.
///
/// `slots.json` holds both components' slots and which is active; it is replaced atomically
/// (written to a temporary file, synced, renamed) on every commit. A transfer in progress is
/// `COMPONENT.staged.json` (its announcement, written atomically) and `COMPONENT.staged.log`
/// (the announced SHA-256, then each chunk as offset, length, a digest and the bytes, synced
/// before the reader acknowledges it). A torn or foreign log tail is cut off when loading.
public struct FirmwareSlotStore: Sendable {
    /// Why the state directory cannot be used.
    public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, naming the path.
        public let description: String
    }

    /// The directory the state lives in.
    public let directory: URL

    /// A store in `path`, created if missing.
    /// - Throws: ``StoreError`` when the directory cannot be created or written to.
    public init(path: String) throws(StoreError) {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StoreError(description: "\(path) is not a directory") }
        } else {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(description: "cannot create \(path): \(error.localizedDescription)")
            }
        }
        guard access(path, W_OK | X_OK) == 0 else { throw StoreError(description: "\(path) is not writable") }
    }

    // MARK: - Loading

    /// The slots as last saved (or `defaults` when nothing was saved yet), with any transfer
    /// in progress restored to the offset it durably reached.
    /// - Throws: ``StoreError`` when `slots.json` exists but does not hold valid slots.
    public func load(defaults: FirmwareSlots) throws(StoreError) -> FirmwareSlots {
        var slots = defaults
        let file = url(Self.slotsFile)
        if FileManager.default.fileExists(atPath: file.path) {
            do {
                let saved = try JSONDecoder().decode(SavedSlots.self, from: Data(contentsOf: file))
                for component in FirmwareSlots.Component.allCases {
                    guard let bank = saved.banks[component.rawValue], let restored = bank.bank else {
                        throw StoreError(description: "\(file.path) has no valid \(component.rawValue) slots")
                    }
                    slots.banks[component] = restored
                }
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(
                    description: "\(file.path) is not readable slots: \(error.localizedDescription)")
            }
        }
        for component in FirmwareSlots.Component.allCases { restoreTransfer(component, into: &slots) }
        return slots
    }

    /// Replays the staged log onto the announced transfer; a missing, foreign or torn part is
    /// discarded (the log is cut back to its last whole chunk).
    private func restoreTransfer(_ component: FirmwareSlots.Component, into slots: inout FirmwareSlots) {
        guard let header = try? Data(contentsOf: url(headerFile(component))),
            let announcement = try? JSONDecoder().decode(Announcement.self, from: header),
            let digest = try? Hex.decode(announcement.sha256),
            digest != slots.active(component)?.sha256,
            (try? slots.beginTransfer(
                component, version: announcement.version, size: announcement.size, sha256: digest))
                != nil,
            let log = try? [UInt8](Data(contentsOf: url(logFile(component)))), log.starts(with: digest)
        else {
            slots.interrupt(component)
            clearStaged(component)
            return
        }
        var position = digest.count
        while position + Self.recordHeader <= log.count {
            let offset = Self.readUInt32(log, at: position)
            let count = Self.readUInt32(log, at: position + 4)
            let start = position + Self.recordHeader
            guard start + count <= log.count else { break }
            let chunk = Array(log[start..<(start + count)])
            guard Self.recordDigest(offset: offset, chunk: chunk) == Array(log[(position + 8)..<start]),
                (try? slots.stage(component, offset: offset, chunk: chunk)) != nil
            else { break }
            position = start + count
        }
        if position < log.count, let handle = try? FileHandle(forWritingTo: url(logFile(component))) {
            try? handle.truncate(atOffset: UInt64(position))
            try? handle.synchronize()
            try? handle.close()
        }
    }

    // MARK: - Saving

    /// Replaces `slots.json` atomically with both components' slots and active indexes.
    public func saveSlots(_ slots: FirmwareSlots) throws(StoreError) {
        var saved = SavedSlots(banks: [:])
        for (component, bank) in slots.banks { saved.banks[component.rawValue] = SavedBank(bank) }
        do { try writeAtomically(try JSONEncoder().encode(saved), to: Self.slotsFile) } catch let error
            as StoreError
        {
            throw error
        } catch {
            throw StoreError(description: "cannot encode the slots: \(error.localizedDescription)")
        }
    }

    /// Starts a staged transfer: the old log goes first, so a header never meets a log of
    /// another image.
    public func beginStaged(_ component: FirmwareSlots.Component, version: String, size: Int, sha256: [UInt8])
        throws(StoreError)
    {
        clearStaged(component)
        let announcement = Announcement(version: version, size: size, sha256: Self.hex(sha256))
        do {
            try writeAtomically(try JSONEncoder().encode(announcement), to: headerFile(component))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(description: "cannot encode the announcement: \(error.localizedDescription)")
        }
        try append(sha256, to: logFile(component), creating: true)
    }

    /// Appends a chunk to the staged log and syncs it, so that what the reader acknowledges
    /// is on disk.
    public func appendStaged(_ component: FirmwareSlots.Component, offset: Int, chunk: [UInt8])
        throws(StoreError)
    {
        var record = Self.uint32(offset) + Self.uint32(chunk.count)
        record += Self.recordDigest(offset: offset, chunk: chunk)
        record += chunk
        try append(record, to: logFile(component), creating: false)
    }

    /// Forgets the staged transfer of `component`.
    public func clearStaged(_ component: FirmwareSlots.Component) {
        try? FileManager.default.removeItem(at: url(logFile(component)))
        try? FileManager.default.removeItem(at: url(headerFile(component)))
    }
}
