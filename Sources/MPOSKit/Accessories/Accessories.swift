import MPOSCore
import ReaderLink

/// The accessories beside the reader, reached as ``PaymentTerminal/accessories``: the cash
/// drawer a sale in cash opens, and barcode scanners whose codes become terminal events (the
/// Accept seed's StarIO mPOP).
public actor Accessories {
    private let events: TerminalEvents
    /// The printer whose drawer opens after cash payments, and its pin.
    private var drawer: (printer: ReceiptPrinter, pin: EscPosEncoder.DrawerPin)?
    /// Whether approved cash payments open the drawer.
    private var openDrawerOnCash = false
    /// One task per attached scanner, forwarding its scans.
    private var scanners: [Task<Void, Never>] = []

    init(events: TerminalEvents) { self.events = events }

    /// Opens `printer`'s cash drawer after every approved cash payment or cash refund
    /// (``PaymentTerminal/recordCash(_:refund:)``) when `openOnCashPayments` is set, the
    /// Accept seed's rule. Off until called. The outcome is a
    /// ``TerminalEvent/cashDrawer(opened:problem:)`` event; a drawer that does not open never
    /// changes the payment's result.
    ///
    /// - Parameters:
    ///   - printer: the printer the drawer is connected to; nil forgets it.
    ///   - pin: the kick-out connector pin of the drawer.
    ///   - openOnCashPayments: whether cash payments open the drawer.
    public func setCashDrawer(
        _ printer: ReceiptPrinter?, pin: EscPosEncoder.DrawerPin = .pin2, openOnCashPayments: Bool = true
    ) {
        drawer = printer.map { ($0, pin) }
        openDrawerOnCash = openOnCashPayments && printer != nil
    }

    /// Opens the drawer after an approved cash operation, when the terminal is set to.
    func openDrawer(after result: PaymentResult) async {
        guard openDrawerOnCash, result.status == .approved, let drawer else { return }
        do {
            try await drawer.printer.openCashDrawer(pin: drawer.pin)
            events.emit(.cashDrawer(opened: true, problem: nil))
        } catch {
            events.emit(.cashDrawer(opened: false, problem: error))
        }
    }

    /// Delivers the codes of `scanner` as the reader's scanner's are delivered
    /// (``TerminalEvent/scan(_:)``), until its stream finishes or ``detachScanners()`` is called.
    public func attachScanner(_ scanner: any BarcodeScannerAccessory) {
        let scans = scanner.scans
        let events = self.events
        // Unstructured: forwards the accessory's codes for as long as it is attached.
        scanners.append(Task { for await scan in scans { events.emit(.scan(scan)) } })
    }

    /// Stops delivering the codes of every attached accessory scanner.
    public func detachScanners() {
        for task in scanners { task.cancel() }
        scanners = []
    }
}

/// A barcode scanner on an accessory (a StarIO mPOP, a Bluetooth scanner) that the app
/// connects. Attached to a terminal with ``Accessories/attachScanner(_:)``, its codes
/// arrive where the reader's scanner's do: on ``CardReaderLink/scans()`` and as
/// ``TerminalEvent/scan(_:)``.
///
/// ```swift
/// struct MPOPScanner: BarcodeScannerAccessory {
///     let scans: AsyncStream<ScanEvent>   // fed by the StarIO SDK's data callback
/// }
/// await terminal.accessories.attachScanner(MPOPScanner(scans: stream))
/// ```
public protocol BarcodeScannerAccessory: Sendable {
    /// The codes the accessory reads, as it reads them; finishes when it disconnects.
    var scans: AsyncStream<ScanEvent> { get }
}
