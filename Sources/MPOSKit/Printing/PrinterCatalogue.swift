import MPOSCore

/// The printers the SDK knows, by vendor: the Accept seed's `discoverSupportedPrinterVendors`
/// and `discoverPrintersForVendor:`. Each model says how it is reached, the profile it prints
/// with and what else it does (a cash drawer, a scanner).
///
/// ```swift
/// for vendor in PrinterCatalogue.supported.vendors { print(vendor.name) }
/// let model = try PrinterCatalogue.supported.printers(forVendor: "star-micronics")[0]
/// let printer = ReceiptPrinter(profile: model.profile ?? .paper58mm) {
///     TransportPrinterConnection(try await TCPTransport.connect(host: host, port: model.port ?? ReceiptPrinter.defaultPort))
/// }
/// ```
public struct PrinterCatalogue: Sendable, Hashable {
    /// How a printer is reached.
    public enum Connection: String, Sendable, Hashable {
        /// ESC/POS over TCP (raw port 9100): what ``ReceiptPrinter`` drives on every platform.
        case network
        /// A Bluetooth accessory (External Accessory on iOS): needs an Apple build and the
        /// vendor's MFi protocol, which this SDK does not carry; its ESC/POS dialect is the
        /// profile's, for an app that opens the link itself and hands it to ``ReceiptPrinter``.
        case bluetoothAccessory
        /// AirPrint, through UIKit's print interaction on Apple platforms.
        case airPrint
    }

    /// One printer model.
    public struct Model: Sendable, Hashable, Identifiable {
        /// A stable id, unique in the catalogue.
        public var id: String
        /// The model's name, as its vendor sells it.
        public var name: String
        /// How it is reached.
        public var connection: Connection
        /// The ESC/POS profile it prints with (nil for AirPrint, which lays out a page).
        public var profile: PrinterProfile?
        /// Whether a cash drawer hangs off it (``ReceiptPrinter/openCashDrawer(pin:)``).
        public var opensCashDrawer: Bool
        /// Whether it has a bar-code scanner (the Accept seed's `connectBarcodeScanner`).
        public var readsBarcodes: Bool

        /// The raw TCP port of a network printer.
        public var port: Int? { connection == .network ? ReceiptPrinter.defaultPort : nil }
    }

    /// A vendor and its models.
    public struct Vendor: Sendable, Hashable, Identifiable {
        /// A stable id (the seed's `vendorUUID`).
        public var id: String
        /// The vendor's name.
        public var name: String
        /// Its models.
        public var printers: [Model]
    }

    /// The vendors, in the order an app lists them.
    public var vendors: [Vendor]

    /// The printers of vendor `id`.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` for an id that is no vendor of the catalogue.
    public func printers(forVendor id: String) throws(MPOSError) -> [Model] {
        guard let vendor = vendors.first(where: { $0.id == id }) else {
            throw MPOSError.invalidArgument.withMessage(
                "No printer vendor has the id \"\(id)\"; the vendors are \(vendors.map(\.id).joined(separator: ", ")).")
        }
        return vendor.printers
    }

    /// The printer with model id `id`, whichever vendor's.
    public func printer(id: String) -> Model? { vendors.lazy.flatMap(\.printers).first { $0.id == id } }

    /// The printers this SDK knows.
    public static let supported = PrinterCatalogue(vendors: [
        Vendor(id: "escpos", name: "ESC/POS network printers", printers: [
            Model(id: "escpos-58", name: "58 mm ESC/POS printer", connection: .network, profile: .paper58mm,
                  opensCashDrawer: true, readsBarcodes: false),
            Model(id: "escpos-80", name: "80 mm ESC/POS printer", connection: .network, profile: .paper80mm,
                  opensCashDrawer: true, readsBarcodes: false),
        ]),
        Vendor(id: "epson", name: "Epson", printers: [
            Model(id: "epson-tm-m30", name: "TM-m30 (LAN)", connection: .network, profile: .paper80mm,
                  opensCashDrawer: true, readsBarcodes: false),
        ]),
        Vendor(id: "star-micronics", name: "Star Micronics", printers: [
            Model(id: "star-mpop", name: "mPOP (LAN)", connection: .network, profile: .paper58mm,
                  opensCashDrawer: true, readsBarcodes: true),
        ]),
        Vendor(id: "datecs", name: "Datecs", printers: [
            Model(id: "datecs-dpp-250", name: "DPP-250", connection: .bluetoothAccessory, profile: .datecsDPP250,
                  opensCashDrawer: false, readsBarcodes: false),
        ]),
        Vendor(id: "airprint", name: "AirPrint", printers: [
            Model(id: "airprint", name: "Any AirPrint printer", connection: .airPrint, profile: nil,
                  opensCashDrawer: false, readsBarcodes: false),
        ]),
    ])
}
