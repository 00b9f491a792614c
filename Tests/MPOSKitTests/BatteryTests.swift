import Foundation
import MPOSCore
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The reader's battery level and the low-battery warning, against the simulated reader.
@Suite(.serialized, .timeLimit(.minutes(1))) struct TerminalBatteryTests {
    static func status(_ percentage: UInt8, charging: Bool = false) -> BatteryStatus {
        BatteryStatus(percentage: percentage, isCharging: charging, hasExternalPower: charging)
    }

    @Test func theWatchWarnsOnceUnderItsThresholdAndAgainAfterRecovering() {
        var watch = BatteryWatch()
        #expect(watch.threshold == 10)
        // 5 % on power: no warning, and the next low report on battery warns again.
        let reports: [(UInt8, Bool)] = [
            (50, false), (10, false), (9, false), (7, false), (3, false), (5, true), (5, false), (12, false),
            (9, false),
        ]
        let warned = reports.map { watch.report(Self.status($0.0, charging: $0.1)) }
        #expect(warned == [false, false, true, false, false, false, true, false, true])
        var off = BatteryWatch(threshold: 0)
        let atZero = off.report(Self.status(0))
        #expect(!atZero)
    }

    /// A terminal connected to the sandbox reader, counting its low-battery warnings.
    static func connected(_ sandbox: Sandbox) async throws -> (PaymentTerminal, Locked<[UInt8]>) {
        let terminal = try await sandbox.terminal(connect: false)
        let warnings = Locked<[UInt8]>([])
        terminal.events.addHandler([.status]) { event in
            if case .batteryLow(let battery) = event { warnings.withLock { $0.append(battery.percentage) } }
        }
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        return (terminal, warnings)
    }

    @Test func batteryLevelReadsTheReaderAndALowReportWarnsOnce() async throws {
        let sandbox = try await Sandbox { $0.battery = Battery(percentage: 50) }
        let (terminal, warnings) = try await Self.connected(sandbox)
        // Handpoint's BatterymV rides with the level: 3300 mV empty to 4200 mV full.
        #expect(
            try await terminal.reader.battery()
                == BatteryStatus(percentage: 50, isCharging: false, hasExternalPower: false, millivolts: 3750))
        #expect(warnings.withLock { $0 }.isEmpty)

        await sandbox.reader.setBattery(percentage: 8)  // the reader reports it on its own
        while warnings.withLock({ $0 }).isEmpty { await Task.yield() }
        let low = try await terminal.reader.battery()
        #expect(low.percentage == 8 && low.millivolts == 3372)
        #expect(warnings.withLock { $0 } == [8])

        // Back above the threshold, then a stricter threshold: the next report warns again.
        await sandbox.reader.setBattery(percentage: 60)
        #expect(try await terminal.reader.battery().percentage == 60)
        await terminal.reader.setBatteryLowThreshold(70)
        #expect(await terminal.reader.batteryLowThreshold == 70)
        _ = try await terminal.reader.battery()
        #expect(warnings.withLock { $0 } == [8, 60])
        try await sandbox.close(terminal)
    }

    @Test func aReaderThatConnectsLowWarnsAtOnceAndBatteryLevelNeedsAReader() async throws {
        let sandbox = try await Sandbox { $0.battery = Battery(percentage: 9) }
        let (terminal, warnings) = try await Self.connected(sandbox)
        #expect(warnings.withLock { $0 } == [9])
        await terminal.disconnect()
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.battery() }
        try await sandbox.close(terminal)
    }
}
