import MPOSCore
import Testing

@testable import MPOSKit

/// The one-byte answers to `DLE EOT n`, bit by bit as the Epson ESC/POS reference defines them.
@Suite(.timeLimit(.minutes(1))) struct EscPosStatusTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let request: PrinterStatus.Request
        let answer: UInt8
        let summary: String
        var testDescription: String { "DLE EOT \(request.rawValue) → \(answer)" }
    }

    static let table: [Case] = [
        Case(request: .printer, answer: 0x12, summary: "ready"),
        Case(request: .printer, answer: 0x1A, summary: "offline"),  // bit 3
        Case(request: .printer, answer: 0x16, summary: "ready"),  // bit 2: drawer pin 3 high
        Case(request: .offlineCause, answer: 0x16, summary: "cover open"),  // bit 2
        Case(request: .offlineCause, answer: 0x32, summary: "paper out"),  // bit 5
        Case(request: .offlineCause, answer: 0x52, summary: "error"),  // bit 6
        Case(request: .offlineCause, answer: 0x1A, summary: "ready"),  // bit 3: feed button
        Case(request: .errorCause, answer: 0x1A, summary: "cutter error"),  // bit 3
        Case(request: .errorCause, answer: 0x32, summary: "unrecoverable error"),  // bit 5
        Case(request: .errorCause, answer: 0x52, summary: "recoverable error"),  // bit 6
        Case(request: .paperSensor, answer: 0x1E, summary: "paper near end"),  // bits 2, 3
        Case(request: .paperSensor, answer: 0x72, summary: "paper out"),  // bits 5, 6
        Case(request: .paperSensor, answer: 0x7E, summary: "paper out, paper near end"),
    ]

    @Test(arguments: table) func eachAnswerBitMeansOneCondition(_ entry: Case) throws {
        var status = PrinterStatus()
        try status.update(with: entry.answer, for: entry.request)
        #expect(status.summary == entry.summary)
        #expect(status.isReady == (entry.summary == "ready" || entry.summary == "paper near end"))
    }

    @Test func theDrawerSensorLevelIsReadWithTheDrawersPolarity() throws {
        var status = PrinterStatus()
        try status.update(with: 0x16, for: .printer)
        #expect(status.drawerSensorHigh && status.drawerOpen)
        status.drawerOpensHigh = false
        #expect(!status.drawerOpen)
        try status.update(with: 0x12, for: .printer)
        #expect(!status.drawerSensorHigh && status.drawerOpen)
    }

    @Test func answersCombineAcrossRequests() throws {
        var status = PrinterStatus()
        try status.update(with: 0x1A, for: .printer)
        try status.update(with: 0x36, for: .offlineCause)
        try status.update(with: 0x12, for: .errorCause)
        try status.update(with: 0x72, for: .paperSensor)
        #expect(status.offline && status.coverOpen && status.paperEndStop && status.paperEndSensor)
        #expect(status.summary == "offline, cover open, paper out")
        // Paper put back: the sensor and the offline cause both clear.
        try status.update(with: 0x12, for: .paperSensor)
        try status.update(with: 0x12, for: .offlineCause)
        try status.update(with: 0x12, for: .printer)
        #expect(status.isReady && status.description == "ready")
    }

    @Test(arguments: [0x00, 0xFF, 0x13, 0x92, 0x02, 0x10] as [UInt8])
    func aByteWithoutTheFixedBitsIsNotAStatus(_ answer: UInt8) {
        var status = PrinterStatus()
        #expect(throws: MPOSError.self) { try status.update(with: answer, for: .printer) }
        #expect(status == PrinterStatus())
    }
}
