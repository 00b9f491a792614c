import Crypto
import Foundation
import MPOSCore

/// Where the offline store's AES-256 key lives: a 0600 key file on Linux
/// (``OfflineKeyFile``), the Keychain on Apple platforms (``KeychainOfflineKey``).
public protocol OfflineStoreKeyProvider: Sendable {
    /// The store's key, created on first use.
    ///
    /// - Throws: ``MPOSError/offlineStoreFailed`` when the key cannot be read or created, or
    ///   is not kept safely (a key file others may read).
    func key() throws(MPOSError) -> SymmetricKey
}

/// The key in a file of its own, readable and writable by the owner only (mode 0600). A file
/// that group or others may access is refused rather than used.
public struct OfflineKeyFile: OfflineStoreKeyProvider {
    /// The key file's path.
    public let path: String

    /// A key kept at `path` (created with mode 0600 when missing).
    public init(path: String) { self.path = path }

    /// Reads the key, creating it with 32 random bytes when the file does not exist.
    ///
    /// - Throws: ``MPOSError/offlineStoreFailed`` when the file is not 0600 (group or others
    ///   have any access), is not 32 bytes, or cannot be read or created.
    public func key() throws(MPOSError) -> SymmetricKey {
        if !FileManager.default.fileExists(atPath: path) { try create() }
        let openMode: Int?
        do { openMode = try PrivateFile.modeOpenToOthers(path) } catch {
            throw MPOSError.offlineStoreFailed.withMessage("The offline key file \(path) cannot be read.")
        }
        if let openMode {
            throw MPOSError.offlineStoreFailed.withMessage(
                "The offline key file \(path) may be read by others (mode \(String(openMode, radix: 8))); it must be 0600.")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count == 32 else {
            throw MPOSError.offlineStoreFailed.withMessage(
                "The offline key file \(path) does not hold a 32-byte key.")
        }
        return SymmetricKey(data: data)
    }

    private func create() throws(MPOSError) {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // Made empty and 0600 first, then filled: Foundation may write a file's contents
        // before it applies its attributes, with the umask's mode in between.
        do {
            try PrivateFile.prepare(path)
            try FileManager.default.setAttributes([.posixPermissions: PrivateFile.fileMode], ofItemAtPath: path)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }  // Synced below; a failed close loses nothing.
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
        } catch {
            throw MPOSError.offlineStoreFailed.withMessage("The offline key file \(path) cannot be created.")
        }
    }
}

#if canImport(Security)
    import Security

    /// The key in the Keychain, kept on this device only and only while it is unlocked.
    public struct KeychainOfflineKey: OfflineStoreKeyProvider {
        /// The Keychain item's service name.
        public let service: String

        /// A key in the Keychain under `service`.
        public init(service: String = "MPOSKit.offline-store") { self.service = service }

        /// Reads the key, adding a new random one when the Keychain has none.
        ///
        /// - Throws: ``MPOSError/offlineStoreFailed`` with the Keychain's status.
        public func key() throws(MPOSError) -> SymmetricKey {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecReturnData as String: true,
            ]
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            if status == errSecSuccess, let data = item as? Data, data.count == 32 {
                return SymmetricKey(data: data)
            }
            guard status == errSecItemNotFound else {
                throw MPOSError.offlineStoreFailed.withMessage(
                    "The Keychain refused the offline key (status \(status)).")
            }
            let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecValueData as String: bytes,
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            ]
            let added = SecItemAdd(add as CFDictionary, nil)
            guard added == errSecSuccess else {
                throw MPOSError.offlineStoreFailed.withMessage(
                    "The Keychain did not keep the offline key (status \(added)).")
            }
            return SymmetricKey(data: bytes)
        }
    }
#endif
