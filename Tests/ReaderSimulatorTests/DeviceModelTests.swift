import Foundation
import MPOSCore
import ReaderSimulator
import SandboxCards
import Testing

/// The battery's drain, warnings and refusal.
@Suite(.timeLimit(.minutes(2))) struct BatteryTests {
    @Test func drainsPerTransactionAndWarnsOnceWhenLow() {
        var battery = Battery(percentage: 17, drainPerTransaction: 1, lowThreshold: 15, refusalThreshold: 5)
        #expect(battery.recordTransaction().isEmpty)
        #expect(battery.recordTransaction() == [.low(percentage: 15)])
        #expect(battery.recordTransaction().isEmpty)
        #expect(battery.percentage == 14)
        #expect(battery.refusal == nil)
    }

    @Test func refusesBelowTheThresholdUnlessCharging() {
        var battery = Battery(percentage: 7, drainPerTransaction: 2, lowThreshold: 15, refusalThreshold: 5)
        #expect(battery.recordTransaction() == [.critical(percentage: 5)])
        #expect(battery.refusal == .batteryTooLow)
        #expect(battery.setCharging(true) == [.charging(true)])
        #expect(battery.refusal == nil)
        #expect(battery.recordTransaction().isEmpty)
        #expect(battery.percentage == 5)
        battery.charge(by: 50)
        #expect(battery.setCharging(false) == [.charging(false)])
        #expect(battery.refusal == nil)
        #expect(!battery.isLow)
        // Crossing down again warns again.
        #expect(battery.set(10) == [.low(percentage: 10)])
    }

    @Test func levelsAreClamped() {
        var battery = Battery(percentage: 150)
        #expect(battery.percentage == 100)
        _ = battery.set(-3)
        #expect(battery.percentage == 0)
    }
}

/// The log's levels, ring buffer and card-data filter.
@Suite(.timeLimit(.minutes(2))) struct ReaderLogTests {
    @Test func keepsOnlyEnabledLevels() {
        var log = ReaderLog(level: .info, capacity: 10)
        #expect(log.append(.info, "transaction started") == nil)
        #expect(log.append(.debug, "state machine detail") == .filteredByLevel)
        log.level = .none
        #expect(log.append(.info, "anything") == .filteredByLevel)
        #expect(log.entries.map(\.message) == ["transaction started"])
    }

    @Test func ringBufferKeepsTheNewestLines() {
        var log = ReaderLog(level: .debug, capacity: 3)
        for n in 1...5 { log.append(.full, "line \(n)") }
        #expect(log.entries.map(\.message) == ["line 3", "line 4", "line 5"])
        #expect(log.entries.map(\.sequence) == [2, 3, 4])
        log.clear()
        #expect(log.entries.isEmpty)
        log.append(.info, "after")
        #expect(log.entries.first?.sequence == 5)
    }

    @Test(arguments: [
        "card 4111111111111111 read", "PAN 4111 1111 1111 1111", "pan=5413-3300-8901-0038 ok",
        "amex 378282246310005", "track2 ;4111111111111111=49122010000000?", "57 4111111111111111D49122010000",
        "5A084111111111111111", "%B4111111111111111^CARDHOLDER/VISA^4912", "2223003122003222",
    ])
    func refusesCardNumbersAndTrackData(line: String) {
        var log = ReaderLog(level: .debug)
        #expect(log.append(.info, line) == .looksLikeCardData)
        #expect(log.entries.isEmpty)
        #expect(log.refusedCount == 1)
    }

    @Test func refusesEveryCatalogCardInEveryForm() {
        for card in SandboxCards.all {
            #expect(ReaderLog.looksLikeCardData(card.pan.unmaskedDigits), "\(card.id)")
            #expect(ReaderLog.looksLikeCardData(card.magstripeTrack2), "\(card.id)")
            #expect(ReaderLog.looksLikeCardData("x" + card.track2Hex + "x"), "\(card.id)")
        }
    }

    @Test(arguments: [
        "amount 12345 EUR", "KSN FDF8B87800000001 counter 1", "masked 411111******1111", "ATC 0001",
        "2026-11-23T09:00:00Z battery 85%", "100%B", "order 123456789012",
    ])
    func keepsOrdinaryLines(line: String) {
        var log = ReaderLog(level: .debug)
        #expect(log.append(.info, line) == nil)
    }
}

extension SandboxCard {
    fileprivate var track2Hex: String { track2Equivalent.map { String(format: "%02X", $0) }.joined() }
}

/// The bar-code scanner's modes and timeout.
@Suite(.timeLimit(.minutes(2))) struct BarcodeScannerTests {
    @Test func ignoresCodesWhileDisabled() {
        var scanner = BarcodeScanner()
        #expect(scanner.feed("123", now: .zero).isEmpty)
    }

    @Test func singleModeSwitchesOffAfterOneCode() {
        var scanner = BarcodeScanner()
        scanner.enable(mode: .single, now: .zero)
        #expect(scanner.feed("A1", now: .seconds(1)) == [.scanned("A1")])
        #expect(!scanner.isEnabled)
        #expect(scanner.feed("A2", now: .seconds(2)).isEmpty)
    }

    /// The Heft seed's `buttonMode`: the operator presses the scan button to scan.
    @Test func inButtonModeACodeIsReadOnlyWhileTheButtonIsHeld() {
        var scanner = BarcodeScanner()
        scanner.enable(mode: .multi, buttonMode: true, now: .zero)
        #expect(scanner.feed("A", now: .seconds(1)).isEmpty)
        scanner.buttonHeld = true
        #expect(scanner.feed("A", now: .seconds(2)) == [.scanned("A")])
        scanner.buttonHeld = false
        #expect(scanner.feed("B", now: .seconds(3)).isEmpty)
        // Without button mode the scanner reads what is in front of it, button or not.
        scanner.enable(mode: .multi, buttonMode: false, now: .seconds(4))
        #expect(scanner.feed("C", now: .seconds(5)) == [.scanned("C")])
    }

    @Test func multiModeKeepsScanningUntilTheInactivityTimeout() {
        var scanner = BarcodeScanner()
        scanner.enable(mode: .multi, timeout: .seconds(10), now: .zero)
        #expect(scanner.feed("A", now: .seconds(5)) == [.scanned("A")])
        #expect(scanner.feed("B", now: .seconds(14)) == [.scanned("B")])
        #expect(scanner.tick(now: .seconds(23)) == nil)
        #expect(scanner.tick(now: .seconds(24)) == .timedOut)
        #expect(!scanner.isEnabled)
        #expect(scanner.tick(now: .seconds(40)) == nil)
        #expect(scanner.feed("C", now: .seconds(41)).isEmpty)
    }

    @Test func aLateCodeReportsTheTimeoutInstead() {
        var scanner = BarcodeScanner()
        scanner.enable(mode: .multi, timeout: .seconds(3), now: .zero)
        #expect(scanner.feed("late", now: .seconds(3)) == [.timedOut])
    }
}

/// Two-slot firmware and configuration updates.
@Suite(.timeLimit(.minutes(2))) struct FirmwareSlotsTests {
    let original = FirmwareSlots.Image(version: "1.0.0", bytes: Array(repeating: 0xAA, count: 64))
    let config = FirmwareSlots.Image(version: "cfg-1", bytes: [1, 2, 3])
    let update = FirmwareSlots.Image(version: "2.0.0", bytes: (0..<100).map { UInt8($0) })

    @Test func stagedVerifiedImageBecomesActiveOnCommit() throws {
        var slots = FirmwareSlots(firmware: original, configuration: config)
        try slots.beginTransfer(
            .firmware, version: update.version, size: update.bytes.count, sha256: update.sha256)
        for offset in stride(from: 0, to: 100, by: 32) {
            try slots.stage(
                .firmware, offset: offset, chunk: Array(update.bytes[offset..<min(100, offset + 32)]))
        }
        #expect(slots.active(.firmware) == original)
        #expect(throws: FirmwareSlots.SlotError.notVerified) { try slots.commit(.firmware) }
        try slots.verify(.firmware)
        try slots.commit(.firmware)
        #expect(slots.active(.firmware) == update)
        #expect(slots.activeSlot(.firmware) == 1)
        #expect(slots.active(.configuration) == config)
        let rolledBack = slots.rollBack(.firmware)
        #expect(rolledBack)
        #expect(slots.active(.firmware) == original)
    }

    @Test func interruptedTransferLeavesTheActiveSlotAlone() throws {
        var slots = FirmwareSlots(firmware: original, configuration: config)
        try slots.beginTransfer(.firmware, version: update.version, size: 100, sha256: update.sha256)
        try slots.stage(.firmware, offset: 0, chunk: Array(update.bytes[0..<40]))
        #expect(slots.resumeOffset(.firmware) == 40)
        slots.interrupt(.firmware)
        #expect(slots.active(.firmware) == original)
        #expect(slots.activeSlot(.firmware) == 0)
        #expect(slots.resumeOffset(.firmware) == nil)
        #expect(throws: FirmwareSlots.SlotError.noTransfer) { try slots.commit(.firmware) }
    }

    @Test func resumesAfterAResendButRefusesGapsAndOverruns() throws {
        var slots = FirmwareSlots(firmware: original, configuration: config)
        try slots.beginTransfer(.firmware, version: update.version, size: 100, sha256: update.sha256)
        try slots.stage(.firmware, offset: 0, chunk: Array(update.bytes[0..<50]))
        try slots.stage(.firmware, offset: 40, chunk: Array(update.bytes[40..<60]))
        #expect(slots.resumeOffset(.firmware) == 60)
        #expect(throws: FirmwareSlots.SlotError.offsetMismatch(expectedOffset: 60)) {
            try slots.stage(.firmware, offset: 70, chunk: [0])
        }
        #expect(throws: FirmwareSlots.SlotError.exceedsSize) {
            try slots.stage(.firmware, offset: 60, chunk: Array(repeating: 0, count: 41))
        }
        #expect(throws: FirmwareSlots.SlotError.incomplete(received: 60, size: 100)) {
            try slots.verify(.firmware)
        }
        try slots.stage(.firmware, offset: 60, chunk: Array(update.bytes[60..<100]))
        try slots.verify(.firmware)
        #expect(try slots.commit(.firmware) == update)
    }

    @Test func corruptImageFailsVerificationAndIsDiscarded() throws {
        var slots = FirmwareSlots(firmware: original, configuration: config)
        var corrupt = update.bytes
        corrupt[10] ^= 0xFF
        try slots.beginTransfer(.configuration, version: "cfg-2", size: 100, sha256: update.sha256)
        try slots.stage(.configuration, offset: 0, chunk: corrupt)
        #expect(throws: FirmwareSlots.SlotError.digestMismatch) { try slots.verify(.configuration) }
        #expect(throws: FirmwareSlots.SlotError.noTransfer) { try slots.commit(.configuration) }
        #expect(slots.active(.configuration) == config)
        #expect(throws: FirmwareSlots.SlotError.invalidAnnouncement) {
            try slots.beginTransfer(.firmware, version: "x", size: 1, sha256: [1, 2])
        }
    }

    @Test func sha256MatchesAKnownVector() {
        let digest = FirmwareSlots.sha256(Array("abc".utf8))
        #expect(
            digest.map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

/// Fault plans as data.
@Suite(.timeLimit(.minutes(2))) struct FaultPlanTests {
    @Test func selectsTheFaultsForAMessage() {
        let plan = FaultPlan([
            .delay(atMessage: 2, by: .milliseconds(500)), .corruptFrame(atMessage: 3),
            .stopResponding(fromMessage: 5),
        ])
        #expect(plan.faults(forMessage: 1).isEmpty)
        #expect(plan.faults(forMessage: 2) == [.delay(atMessage: 2, by: .milliseconds(500))])
        #expect(plan.faults(forMessage: 3) == [.corruptFrame(atMessage: 3)])
        #expect(plan.faults(forMessage: 7) == [.stopResponding(fromMessage: 5)])
        #expect(FaultPlan.none.faults(forMessage: 1).isEmpty)
    }

    @Test func everyLinkErrorScenarioHasADistinctPlan() {
        let plans = SandboxScenario.LinkError.allCases.map {
            FaultPlan.forLinkError($0, authorizationMessage: 4, completionMessage: 6)
        }
        #expect(Set(plans).count == SandboxScenario.LinkError.allCases.count)
        #expect(plans[0] == FaultPlan([.dropLink(atMessage: 4)]))
        #expect(plans[1] == FaultPlan([.dropLink(atMessage: 6)]))
    }
}
