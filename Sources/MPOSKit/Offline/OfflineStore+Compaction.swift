import Foundation
import MPOSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Compaction: the store is append-only, so without it every sale, forward mark and online
// login would stay in the file, and every read (each offline sale reads the store for its
// limits) would grow with the history.
extension OfflineStore {
    /// What a compaction kept and dropped, in slots.
    struct Compaction: Sendable, Hashable {
        var kept: Int
        var dropped: Int
    }

    /// What compaction needs of a slot.
    private enum Slot {
        case payment(UUID), forwarded(UUID, Date), authorization
    }

    /// The file a compaction writes before it replaces the store.
    var compactingPath: String { path + ".compacting" }

    /// Rewrites the store without what no longer needs keeping: sales forwarded before `cutoff`
    /// with their marks, every authorization but the latest, marks of sales no longer held
    /// and all but the last mark of a sale. It keeps, in their order, every sale not
    /// forwarded, sales forwarded since `cutoff` with their mark, the latest authorization and
    /// every damaged slot as it is (still reported, never guessed at; its index may change).
    ///
    /// Nothing is written unless at least `minimumDrop` slots would go. The new file is
    /// written beside the store, synced, renamed over it and the folder synced: a crash leaves
    /// either the old store or the new one, both whole.
    ///
    /// - Returns: what was kept and dropped, or nil when nothing was rewritten.
    func compact(forwardedBefore cutoff: Date, minimumDrop: Int) throws(MPOSError) -> Compaction? {
        // Best effort: a compaction a crash cut short left it; createFile below replaces it anyway.
        try? FileManager.default.removeItem(atPath: compactingPath)
        guard FileManager.default.fileExists(atPath: path), let data = FileManager.default.contents(atPath: path)
        else { return nil }
        let key = try storeKey()
        let bytes = [UInt8](data)
        let count = bytes.count / Self.slotSize
        // A sale is kept or dropped by its id alone (its header's, authenticated by the seal), so
        // only marks are decoded: a sale's JSON is most of the cost of reading the store.
        let slots = (0..<count).map { index -> Slot? in
            guard let (kind, id, plaintext) = Self.unseal(bytes[(index * Self.slotSize)..<((index + 1) * Self.slotSize)], key: key)
            else { return nil }
            switch kind {
            case .payment: return .payment(id)
            case .authorization: return .authorization
            case .forwarded:
                // A mark that does not decode is kept as a damaged slot, as `contents()` reports it.
                guard let outcome = try? GatewayJSON.decoder.decode(OfflineForwardOutcome.self, from: plaintext),
                    outcome.id == id
                else { return nil }
                return .forwarded(id, outcome.forwardedAt)
            }
        }
        var lastMark: [UUID: (index: Int, at: Date)] = [:]
        var lastAuthorization: Int?
        var held: Set<UUID> = []
        for (index, slot) in slots.enumerated() {
            switch slot {
            case .payment(let id): held.insert(id)
            case .forwarded(let id, let at): lastMark[id] = (index, at)
            case .authorization: lastAuthorization = index
            case nil: break
            }
        }
        let expired = held.filter { lastMark[$0].map { $0.at < cutoff } ?? false }
        var kept: [Int] = []
        for (index, slot) in slots.enumerated() {
            switch slot {
            case .payment(let id):
                if !expired.contains(id) { kept.append(index) }
            case .forwarded(let id, _):
                if lastMark[id]?.index == index, held.contains(id), !expired.contains(id) { kept.append(index) }
            case .authorization:
                if index == lastAuthorization { kept.append(index) }
            case nil:
                // An unwritten last slot is an append a crash cut short, not damage.
                let slot = bytes[(index * Self.slotSize)..<((index + 1) * Self.slotSize)]
                if index == count - 1, slot.allSatisfy({ $0 == 0 }) { continue }
                kept.append(index)
            }
        }
        let dropped = count - kept.count
        guard dropped > 0, dropped >= minimumDrop else { return nil }
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(kept.count * Self.slotSize)
        for index in kept { rewritten += bytes[(index * Self.slotSize)..<((index + 1) * Self.slotSize)] }
        try replaceFile(with: rewritten)
        return Compaction(kept: kept.count, dropped: dropped)
    }

    /// Writes `bytes` beside the store, syncs them, renames them over the store and syncs the
    /// folder, so the rename itself survives a crash.
    private func replaceFile(with bytes: [UInt8]) throws(MPOSError) {
        let failed = { (what: String) in
            MPOSError.offlineStoreFailed.withMessage("The offline store \(self.path) could not be compacted: \(what).")
        }
        guard
            FileManager.default.createFile(
                atPath: compactingPath, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw failed("\(compactingPath) cannot be created") }
        do {
            // Restricted again whatever the umask made of the mode createFile was given.
            try FileManager.default.setAttributes([.posixPermissions: PrivateFile.fileMode], ofItemAtPath: compactingPath)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: compactingPath))
            defer { try? handle.close() }  // Synced below; a failed close loses nothing.
            try handle.write(contentsOf: Data(bytes))
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(atPath: compactingPath)  // Cleanup; the store is untouched.
            throw failed("\(error)")
        }
        guard rename(compactingPath, path) == 0 else {
            try? FileManager.default.removeItem(atPath: compactingPath)  // Cleanup; the store is untouched.
            throw failed("rename failed with errno \(errno)")
        }
        #if canImport(Glibc)
            let folder = Glibc.open((path as NSString).deletingLastPathComponent, O_RDONLY)
        #else
            let folder = Darwin.open((path as NSString).deletingLastPathComponent, O_RDONLY)
        #endif
        if folder >= 0 {
            _ = fsync(folder)
            _ = close(folder)
        }
    }
}
