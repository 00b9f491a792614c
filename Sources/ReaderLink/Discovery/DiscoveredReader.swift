/// How the SDK reaches a reader. A struct rather than an enum, so that kinds can be added
/// (Bluetooth LE, USB) without breaking an app's `switch`.
public struct ReaderTransportKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// "tcp", "simulated" …
    public let rawValue: String

    /// A kind by name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// ReaderLink over TCP on the local network (found with UDP probes).
    public static let tcp = ReaderTransportKind(rawValue: "tcp")
    /// A reader in software, in the app's own process.
    public static let simulated = ReaderTransportKind(rawValue: "simulated")

    /// The kind's name.
    public var description: String { rawValue }
}

/// A reader a ``ReaderScanner`` found: what to show the merchant, and how to open a link to it.
///
/// Two values are equal when they describe the same reader the same way; ``open`` takes no
/// part in equality.
public struct DiscoveredReader: Sendable, Hashable, Identifiable {
    /// Stable across scans: the transport kind and the serial number ("tcp:MPSIM-000001").
    /// Discovery de-duplicates on it.
    public let id: String
    /// What the reader announced (name, serial number, model, protocol version).
    public let announcement: ReaderAnnouncement
    /// How the reader is reached.
    public let transportKind: ReaderTransportKind
    /// Where, for display and logs ("192.168.1.20:4000"); nil where there is no address.
    public let address: String?
    /// Opens a new byte link to the reader (the SDK pairs over it). Each call opens a new one.
    public let open: @Sendable () async throws -> any ReaderTransport

    /// Creates a discovered reader.
    public init(
        announcement: ReaderAnnouncement, transportKind: ReaderTransportKind, address: String? = nil,
        open: @escaping @Sendable () async throws -> any ReaderTransport
    ) {
        self.id = "\(transportKind.rawValue):\(announcement.serialNumber)"
        self.announcement = announcement
        self.transportKind = transportKind
        self.address = address
        self.open = open
    }

    /// The name shown to the merchant.
    public var name: String { announcement.name }
    /// The reader's serial number.
    public var serialNumber: String { announcement.serialNumber }
    /// The reader's model.
    public var model: String { announcement.model }

    /// Whether both describe the same reader the same way (`open` is not compared).
    public static func == (lhs: DiscoveredReader, rhs: DiscoveredReader) -> Bool {
        lhs.id == rhs.id && lhs.announcement == rhs.announcement && lhs.transportKind == rhs.transportKind
            && lhs.address == rhs.address
    }

    /// Hashes the id and the address.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(address)
    }
}

/// Finds readers over one kind of transport (UDP probes on the local network, readers in
/// process, a Bluetooth scan).
///
/// `scan()` starts looking and yields each reader as it answers; it keeps looking until the
/// stream's consumer stops (its task is cancelled or it drops the stream), and then releases
/// what it holds (sockets, radios). It may yield the same reader more than once; callers
/// de-duplicate by ``DiscoveredReader/id``. `PaymentTerminal.discoverReaders(scanners:scanTime:)`
/// runs several scanners at once and ends them at the scan time.
public protocol ReaderScanner: Sendable {
    /// Starts a scan. See the protocol's description for when it ends.
    func scan() -> AsyncStream<DiscoveredReader>
}
