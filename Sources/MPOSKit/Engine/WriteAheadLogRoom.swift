import Foundation

/// Room reserved ahead of use in a SQLite write-ahead log, so that a durable commit
/// overwrites bytes the file already has instead of growing it.
///
/// On journaling file systems such as ext4, an `fdatasync` after a write that grows a file
/// must also commit the file's new size, which an overwrite does not; SQLite grows its log
/// until the first checkpoint after every start. What it saves a sale: docs/performance.md,
/// "The journal's reserved log room".
///
/// The reserved bytes are zeros past the log's end. SQLite reads a log's frames in order and
/// stops at the first whose salt and checksum do not match the log's header, as it does for
/// the stale frames a reused log always holds, so zeros are never mistaken for a commit.
enum WriteAheadLogRoom {
    /// The bytes a log needs to hold `pages` frames of `pageSize` bytes: the 32-byte header,
    /// and a 24-byte header per frame.
    static func bytes(pages: Int, pageSize: Int) -> Int { 32 + pages * (pageSize + 24) }

    /// Reserves room for the frames a log holds between two checkpoints (`checkpointPages`,
    /// SQLite's `wal_autocheckpoint`) and an eighth more, since a checkpoint runs after the
    /// commit that crosses the limit. See ``reserve(_:inLogAt:)``.
    static func reserve(checkpointPages: Int, pageSize: Int, inLogAt path: String) throws {
        try reserve(bytes(pages: checkpointPages + checkpointPages / 8, pageSize: pageSize), inLogAt: path)
    }

    /// Extends the file at `path` with zeros until it is at least `bytes` long and syncs it.
    /// Does nothing when the file is missing or already long enough.
    ///
    /// Call it only while no connection writes the log (inside the database's exclusive
    /// write access): the zeros go where the next frames will.
    static func reserve(_ bytes: Int, inLogAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }  // Synced below; a failed close loses nothing.
        var size = Int(try handle.seekToEnd())
        guard size < bytes else { return }
        let chunk = Data(count: 64 * 1024)
        while size < bytes {
            let count = min(chunk.count, bytes - size)
            try handle.write(contentsOf: chunk.prefix(count))
            size += count
        }
        try handle.synchronize()
    }
}
