import MPOSCore
import ReaderLink

/// The terminal's accessories: the cash drawer on a receipt printer and barcode scanners
/// attached to accessories (the Accept seed's StarIO mPOP).
struct TerminalAccessories: Sendable {
    /// The printer whose drawer opens after cash payments, and its pin.
    var drawerPrinter: ReceiptPrinter?
    var drawerPin: EscPosEncoder.DrawerPin = .pin2
    var openDrawerOnCash = false
    /// One task per attached scanner, forwarding its scans.
    var scanners: [Task<Void, Never>] = []
}

/// A barcode scanner on an accessory (a StarIO mPOP, a Bluetooth scanner) that the app
/// connects. Attached to a terminal with ``Accessories/attachScanner(_:)``, its codes
/// arrive where the reader's scanner's do: on ``ReaderTools/scans()`` and as
/// ``TerminalEvent/scan(_:)``.
///
/// ```swift
/// struct MPOPScanner: BarcodeScannerAccessory {
///     let scans: AsyncStream<ScanEvent>   // fed by the StarIO SDK's data callback
/// }
/// await terminal.attachScanner(MPOPScanner(scans: stream))
/// ```
public protocol BarcodeScannerAccessory: Sendable {
    /// The codes the accessory reads, as it reads them; finishes when it disconnects.
    var scans: AsyncStream<ScanEvent> { get }
}

extension PaymentTerminal {
    /// Opens `printer`'s cash drawer after every approved cash payment or cash refund
    /// (``recordCash(_:refund:)``) when `openOnCashPayments` is set, the Accept seed's rule. Off
    /// until called. The outcome is a ``TerminalEvent/cashDrawer(opened:problem:)`` event; a
    /// drawer that does not open never changes the payment's result.
    ///
    /// - Parameters:
    ///   - printer: the printer the drawer is connected to; nil forgets it.
    ///   - pin: the kick-out connector pin of the drawer.
    ///   - openOnCashPayments: whether cash payments open the drawer.
    func setCashDrawer(
        _ printer: ReceiptPrinter?, pin: EscPosEncoder.DrawerPin = .pin2, openOnCashPayments: Bool = true
    ) {
        accessoryState.drawerPrinter = printer
        accessoryState.drawerPin = pin
        accessoryState.openDrawerOnCash = openOnCashPayments && printer != nil
    }

    /// Opens the drawer after an approved cash operation, when the terminal is set to.
    func openDrawerAfterCash(_ result: PaymentResult) async {
        guard accessoryState.openDrawerOnCash, result.status == .approved,
            let printer = accessoryState.drawerPrinter
        else { return }
        do {
            try await printer.openCashDrawer(pin: accessoryState.drawerPin)
            emit(.cashDrawer(opened: true, problem: nil))
        } catch {
            emit(.cashDrawer(opened: false, problem: error))
        }
    }

    /// Delivers the codes of `scanner` as the reader's scanner's are delivered, until its
    /// stream finishes or ``detachScanners()`` is called.
    func attachScanner(_ scanner: any BarcodeScannerAccessory) {
        let scans = scanner.scans
        // Unstructured: forwards the accessory's codes for as long as it is attached.
        let forwarding = Task { [weak self] in
            for await scan in scans {
                guard let self else { return }
                await self.emit(.scan(scan))
            }
        }
        accessoryState.scanners.append(forwarding)
    }

    /// Stops delivering the codes of every attached accessory scanner.
    func detachScanners() {
        for task in accessoryState.scanners { task.cancel() }
        accessoryState.scanners = []
    }
}
