import Foundation
import GatewayAPI
import MPOSCore

/// A device credential as the SDK keeps it: the credential, and the gateway and user it was
/// granted for (a credential is presented only to its gateway, and only when the terminal
/// logs in as its user).
public struct StoredDeviceCredential: Codable, Sendable, Hashable {
    /// The gateway's base URL.
    public var gateway: String
    /// The user whose login registered the device; nil for a device registered with a client
    /// token.
    public var user: String?
    /// The credential.
    public var credential: DeviceCredential

    /// Creates a stored credential.
    public init(gateway: String, user: String?, credential: DeviceCredential) {
        self.gateway = gateway
        self.user = user
        self.credential = credential
    }
}

/// Where a terminal keeps its device credential between runs: the credential that renews its
/// sessions without the user's password (``PaymentTerminal``'s `deviceCredentials`).
///
/// The SDK's own are ``DeviceCredentialFile`` (a 0600 file beside the journal, the default)
/// and, on Apple platforms, ``KeychainDeviceCredential``.
public protocol DeviceCredentialStore: Sendable {
    /// The stored credential, or nil when there is none.
    ///
    /// - Throws: ``MPOSError/deviceCredentialStoreFailed`` when the store cannot be read.
    func load() throws(MPOSError) -> StoredDeviceCredential?
    /// Replaces the stored credential.
    func save(_ stored: StoredDeviceCredential) throws(MPOSError)
    /// Forgets the stored credential (the gateway refused it).
    func remove() throws(MPOSError)
}

extension MPOSError.Code {
    /// 5120: the device credential could not be read or written.
    public static let deviceCredentialStoreFailed = 5120
}

extension MPOSError {
    /// The device credential could not be read or written.
    public static let deviceCredentialStoreFailed = MPOSError(
        code: Code.deviceCredentialStoreFailed, message: "The device credential could not be read or written.")
}

/// The device credential in a JSON file, made 0600 before it is filled and replaced whole (a
/// new file renamed over the old), so it is never readable by others and never half written.
public struct DeviceCredentialFile: DeviceCredentialStore {
    /// The file's path.
    public let path: String

    /// A credential kept at `path` (`<journal>.device` by default).
    public init(path: String) { self.path = path }

    /// Reads the file; nil when it does not exist.
    ///
    /// - Throws: ``MPOSError/deviceCredentialStoreFailed`` when it may be read by others, or
    ///   is not a stored credential.
    public func load() throws(MPOSError) -> StoredDeviceCredential? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let openMode: Int?
        do { openMode = try PrivateFile.modeOpenToOthers(path) } catch {
            throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential file \(path) cannot be read.")
        }
        if let openMode {
            throw MPOSError.deviceCredentialStoreFailed.withMessage(
                "The device credential file \(path) may be read by others (mode \(String(openMode, radix: 8))); it must be 0600.")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential file \(path) cannot be read.")
        }
        do { return try JSONDecoder().decode(StoredDeviceCredential.self, from: data) } catch {
            throw MPOSError.deviceCredentialStoreFailed.withMessage(
                "The device credential file \(path) does not hold a device credential.")
        }
    }

    /// Writes `stored` to a new 0600 file (0700 folders) and renames it over the old one.
    public func save(_ stored: StoredDeviceCredential) throws(MPOSError) {
        let data: Data
        do { data = try JSONEncoder().encode(stored) } catch {
            throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential could not be encoded.")
        }
        let temporary = path + ".new"
        do { try PrivateFile.write(data, to: temporary) } catch {
            throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential file \(path) cannot be written.")
        }
        guard rename(temporary, path) == 0 else {
            throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential file \(path) cannot be replaced.")
        }
    }

    /// Deletes the file; nothing happens when there is none.
    public func remove() throws(MPOSError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential file \(path) cannot be deleted.")
        }
    }
}

#if canImport(Security)
    import Security

    /// The device credential in the Keychain, kept on this device only and only while it is
    /// unlocked.
    public struct KeychainDeviceCredential: DeviceCredentialStore {
        /// The Keychain item's service name.
        public let service: String
        /// The Keychain item's account: one credential per journal.
        public let account: String

        /// A credential in the Keychain under `service` and `account`.
        public init(service: String = "MPOSKit.device-credential", account: String) {
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        /// Reads the item; nil when there is none.
        public func load() throws(MPOSError) -> StoredDeviceCredential? {
            var search = query
            search[kSecReturnData as String] = true
            var item: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            // An item that is not a credential throws below, as an unreadable one does.
            guard status == errSecSuccess, let data = item as? Data,
                let stored = try? JSONDecoder().decode(StoredDeviceCredential.self, from: data)
            else {
                throw MPOSError.deviceCredentialStoreFailed.withMessage(
                    "The Keychain did not give the device credential (status \(status)).")
            }
            return stored
        }

        /// Replaces the item.
        public func save(_ stored: StoredDeviceCredential) throws(MPOSError) {
            // The encoder's own error says no more than the one thrown here.
            guard let data = try? JSONEncoder().encode(stored) else {
                throw MPOSError.deviceCredentialStoreFailed.withMessage("The device credential could not be encoded.")
            }
            SecItemDelete(query as CFDictionary)
            var add = query
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            let status = SecItemAdd(add as CFDictionary, nil)
            guard status == errSecSuccess else {
                throw MPOSError.deviceCredentialStoreFailed.withMessage(
                    "The Keychain did not keep the device credential (status \(status)).")
            }
        }

        /// Deletes the item.
        public func remove() throws(MPOSError) {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw MPOSError.deviceCredentialStoreFailed.withMessage(
                    "The Keychain did not delete the device credential (status \(status)).")
            }
        }
    }
#endif

/// Where a terminal keeps its device credential unless told otherwise.
enum DeviceCredentials {
    /// The Keychain on Apple platforms, a 0600 file beside the journal elsewhere.
    static func standard(journalPath: String) -> any DeviceCredentialStore {
        #if canImport(Security)
            KeychainDeviceCredential(account: journalPath)
        #else
            DeviceCredentialFile(path: journalPath + ".device")
        #endif
    }
}
