#if os(Linux)
    import Foundation
    import MPOSKitNIO
    import MPOSTestSupport
    import PCSCReader
    import ReaderSimulator
    import SandboxCards
    import VirtualSmartCard

    /// `pcsc.sale.latency`: a whole sale (as `sale.e2e.latency` measures it) whose reader's kernel
    /// reaches the card through pcsc-lite, a pcscd of the benchmark's own and vsmartcard's vpcd,
    /// where the sandbox card answers APDUs from this process; `pcsc.emulated.sale.latency` is the
    /// same sale with the same card in software, in the same run. The difference is what the real
    /// smart-card stack costs a sale. Needs root (pcscd runs in a mount namespace) and the
    /// `pcscd` and `vsmartcard-vpcd` packages; without them it prints why and measures nothing.
    func pcscBenchmarks() -> [AsyncBenchmark] {
        [
            AsyncBenchmark(name: "pcsc.sale.latency") {
                if let missing = LocalPCSC.missing {
                    printError("pcsc.sale.latency: \(missing)")
                    return
                }
                let pcsc = try LocalPCSC()
                defer { pcsc.stop() }
                for (key, value) in pcsc.environment { setenv(key, value, 1) }
                guard let visa = SandboxCards.card(id: "visa-credit") else {
                    throw BenchmarkFailure("no visa-credit")
                }
                var chip = try SimulatedCard(card: visa)
                chip.alignATC(to: Date())
                let card = VPCDCardClient(slot: VirtualCardSlot(card: APDUResponder(card: chip)))
                let inserted = Task { try await card.run(host: "127.0.0.1", port: pcsc.cardPort) }
                defer { inserted.cancel() }
                let transport = NIOGatewayTransport()
                try await measureSales(
                    name: "pcsc.sale.latency", transport: transport,
                    cardSource: PCSCCardSource(readerName: pcsc.readerName, pin: visa.pin), warmUp: 5,
                    count: 100)
                await transport.shutdown()
            },
            AsyncBenchmark(name: "pcsc.emulated.sale.latency") {
                let transport = NIOGatewayTransport()
                try await measureSales(
                    name: "pcsc.emulated.sale.latency", transport: transport, warmUp: 5, count: 100)
                await transport.shutdown()
            },
        ]
    }
#else
    func pcscBenchmarks() -> [AsyncBenchmark] { [] }
#endif
