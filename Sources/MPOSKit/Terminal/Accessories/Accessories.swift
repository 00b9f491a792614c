/// The accessories beside the reader, reached as ``PaymentTerminal/accessories``: the cash
/// drawer a sale in cash opens, and barcode scanners whose codes become terminal events.
public struct Accessories: Sendable {
    let terminal: PaymentTerminal

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
    ) async {
        await terminal.setCashDrawer(printer, pin: pin, openOnCashPayments: openOnCashPayments)
    }

    /// Delivers the codes of `scanner` as the reader's scanner's are delivered
    /// (``TerminalEvent/scan(_:)``), until its stream finishes or ``detachScanners()`` is called.
    public func attachScanner(_ scanner: any BarcodeScannerAccessory) async {
        await terminal.attachScanner(scanner)
    }

    /// Stops delivering the codes of every attached accessory scanner.
    public func detachScanners() async { await terminal.detachScanners() }
}
