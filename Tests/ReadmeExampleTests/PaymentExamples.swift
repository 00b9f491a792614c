// The README's payment examples, verbatim between the `README example` markers
// (Scripts/check-readme-examples.py compares them), compiled as an app would write them: this
// file imports MPOSKit and ReaderLinkTCP and nothing else, so a type the examples need that
// MPOSKit does not export fails the build. The functions are compiled, never called: they would
// reach for a gateway and a reader on fixed ports.
import MPOSKit
import ReaderLinkTCP

/// "Taking a payment with MPOSKit"; the parameters are the names the README leaves to the app.
func readmeTakingAPayment(password: String, journalURL: URL, secretHex: String) async throws {
    // README example 1 begin
    let terminal = try PaymentTerminal(
        environment: .sandbox,                       // mpos gateway serve at 127.0.0.1:8080
        credentials: .login(user: "sandbox", password: password),
        journalPath: journalURL.path)
    try await terminal.login()                       // also finishes what the journal left open
    try await terminal.reader.connect(
        transport: try await TCPTransport.connect(host: "127.0.0.1", port: 4000),
        secret: try SharedSecret(hex: secretHex))
    let result = try await terminal.sale(PaymentParameters(amount: 1234, currency: .eur))
    print(result.status, result.customerReceipt)
    // README example 1 end
}

/// Discovering a reader on the network and reading its battery.
func readmeDiscovery(terminal: PaymentTerminal, secret: SharedSecret) async throws -> BatteryStatus {
    // README example 2 begin
    let readers = await terminal.reader.discover(scanners: [TCPReaderScanner()])
    try await terminal.reader.connect(readers[0], secret: secret)
    let battery = try await terminal.reader.battery()  // under 10 % (setBatteryLowThreshold) also raises .batteryLow
    // README example 2 end
    return battery
}

/// A sale with a basket and a statement descriptor.
func readmeBasketSale(terminal: PaymentTerminal) async throws -> PaymentResult {
    // README example 3 begin
    let order = Basket(items: [
        BasketItem(name: "Cappuccino", quantity: 2, unitPrice: 3_90, taxBasisPoints: 700),
        BasketItem(name: "Cheesecake", quantity: 1, unitPrice: 4_54, taxBasisPoints: 1_900),
    ])
    let sale = try await terminal.sale(PaymentParameters(
        amount: 12_34, currency: .eur, statementDescriptor: "Corner Cafe", statementDescriptorSuffix: "Table 4",
        basket: order))
    // README example 3 end
    return sale
}
