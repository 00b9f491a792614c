import Crypto
import EMV
import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// A download-and-apply run's rules, one transition at a time, with no reader or gateway: the
/// order of the stages, what each failure ends as, and where a cancel takes effect.
@Suite(.timeLimit(.minutes(1))) struct UpdateRunMachineTests {
    static let key = Curve25519.Signing.PrivateKey()
    static let published = Date(timeIntervalSince1970: 1_795_000_000)

    /// An image of `bytes`, signed with ``key``.
    static func image(_ id: String, _ kind: UpdateKind, bytes: [UInt8], deadline: Date? = nil) -> UpdateImage {
        var image = UpdateImage(
            id: id, model: "M1", kind: kind, version: "2.0", size: Int64(bytes.count),
            sha256: Hex.encode(SHA256.hash(data: bytes)).lowercased(), md5: "", signature: "", channel: .production,
            deadline: deadline, publishedAt: published)
        image.signature = Hex.encode(try! key.signature(for: image.signedMessage)).lowercased()
        return image
    }

    static let configBytes: [UInt8] = Array(repeating: 0xC0, count: 40)
    static let firmwareBytes: [UInt8] = Array(repeating: 0xF1, count: 64)
    static let config = image("upd_config", .configuration, bytes: configBytes)
    static let firmware = image("upd_firmware", .firmware, bytes: firmwareBytes, deadline: published)

    static func status(_ pending: [UpdateImage]) -> TerminalUpdateStatus {
        TerminalUpdateStatus(
            TerminalInitializeResponse(
                hasUpdates: !pending.isEmpty, updateDeadline: nil, pending: pending, registeredAt: published,
                graceUntil: published, blocked: false))
    }

    static func machine(_ selection: UpdateRunMachine.Selection = .pending(includeFirmware: true)) -> UpdateRunMachine {
        UpdateRunMachine(selection: selection, signingKey: Array(key.publicKey.rawRepresentation))
    }

    /// A machine that validated and is asking what is pending.
    static func checking(_ selection: UpdateRunMachine.Selection = .pending(includeFirmware: true)) -> UpdateRunMachine {
        var machine = machine(selection)
        _ = machine.start()
        _ = machine.handle(.started(.met))
        return machine
    }

    @Test func aRunValidatesThenChecksAndEndsUpToDateWhenNothingIsPending() {
        var machine = Self.machine()
        #expect(machine.start() == [.progress(UpdateProgress(stage: .validation)), .validate])
        #expect(machine.handle(.started(.met)) == [.check])
        #expect(machine.state == .checking(applied: []))
        #expect(
            machine.handle(.checked(Self.status([])))
                == [.finish(UpdateResult(type: .upToDate, applied: [], message: nil))])
        #expect(machine.result?.type == .upToDate)
    }

    @Test func eachUnmetPreconditionEndsTheRunBeforeAnythingIsAsked() {
        let expected: [(UpdateRunMachine.Precondition, UpdateResultType)] = [
            (.notLoggedIn, .notLoggedIn), (.readerNotReachableAgain, .terminalNotSelected),
            (.notInitialized, .notInitialized), (.terminalBusy, .terminalBusy),
        ]
        for (precondition, type) in expected {
            var machine = Self.machine()
            _ = machine.start()
            let actions = machine.handle(.started(precondition))
            #expect(actions.count == 1)
            #expect(machine.result?.type == type)
            #expect(machine.result?.applied == [])
        }
    }

    @Test func aConfigurationImageGoesDownloadWriteRestartConfirmThenTheRunChecksAgain() {
        var machine = Self.checking()
        let config = Self.config
        #expect(machine.handle(.checked(Self.status([config]))) == [.announce(.started(config)), .download(config)])
        #expect(machine.handle(.downloaded(Self.configBytes)) == [.write(Self.configBytes, config)])
        #expect(
            machine.handle(.written) == [.progress(UpdateProgress(stage: .terminalReboot, image: config)), .restart(config)])
        #expect(
            machine.handle(.restarted) == [.progress(UpdateProgress(stage: .confirmUpdate, image: config)), .confirm(config)])
        #expect(machine.handle(.confirmed) == [.announce(.finished(config, succeeded: true)), .check])
        #expect(machine.state == .checking(applied: [config]))
        #expect(
            machine.handle(.checked(Self.status([])))
                == [.finish(UpdateResult(type: .success, applied: [config], message: nil))])
    }

    @Test func firmwareReadsTheBatteryFirstAndStopsBelowFiftyPercent() {
        var machine = Self.checking()
        let firmware = Self.firmware
        #expect(machine.handle(.checked(Self.status([firmware]))) == [.announce(.started(firmware)), .readBattery])
        let actions = machine.handle(.battery(percentage: 49))
        #expect(actions.first == .announce(.finished(firmware, succeeded: false)))
        #expect(machine.result?.type == .batteryTooLow)

        var enough = Self.checking()
        _ = enough.handle(.checked(Self.status([firmware])))
        #expect(enough.handle(.battery(percentage: 50)) == [.download(firmware)])
    }

    @Test func anUnreadableBatteryReachesTheReaderAgainOnceThenGivesUp() {
        var machine = Self.checking()
        let firmware = Self.firmware
        _ = machine.handle(.checked(Self.status([firmware])))
        #expect(machine.handle(.batteryUnreadable(message: "link lost")) == [.reachReaderAgain])
        #expect(machine.handle(.readerReached) == [.readBattery])
        _ = machine.handle(.batteryUnreadable(message: "still lost"))
        #expect(machine.result == UpdateResult(type: .terminalNotSelected, applied: [], message: "still lost"))

        var unreachable = Self.checking()
        _ = unreachable.handle(.checked(Self.status([firmware])))
        _ = unreachable.handle(.batteryUnreadable(message: "link lost"))
        _ = unreachable.handle(.readerNotReached(message: "no answer"))
        #expect(unreachable.result == UpdateResult(type: .terminalNotSelected, applied: [], message: "no answer"))
    }

    @Test func bytesThatAreNotTheSignedImageNeverReachTheReader() {
        var machine = Self.checking()
        _ = machine.handle(.checked(Self.status([Self.config])))
        var tampered = Self.configBytes
        tampered[0] ^= 1
        let actions = machine.handle(.downloaded(tampered))
        #expect(!actions.contains { if case .write = $0 { true } else { false } })
        #expect(machine.result?.type == .hashCheckFailed)
    }

    @Test func aCancelEndsTheRunAtTheNextCheckDownloadOrWrite() {
        var beforeCheck = Self.checking()
        _ = beforeCheck.handle(.cancelled)
        #expect(beforeCheck.result == UpdateResult(type: .cancelled, applied: [], message: nil))

        var beforeDownload = Self.checking()
        _ = beforeDownload.handle(.checked(Self.status([Self.config])))
        #expect(
            beforeDownload.handle(.cancelled) == [
                .announce(.finished(Self.config, succeeded: false)),
                .finish(UpdateResult(type: .cancelled, applied: [], message: "Cancelled before the download.")),
            ])

        var beforeWrite = Self.checking()
        _ = beforeWrite.handle(.checked(Self.status([Self.config])))
        _ = beforeWrite.handle(.downloaded(Self.configBytes))
        _ = beforeWrite.handle(.cancelled)
        #expect(beforeWrite.result == UpdateResult(type: .cancelled, applied: [], message: "Cancelled before the write."))

        // While the reader restarts, a cancel is not a step of the machine's: it must come back.
        var restarting = Self.checking()
        _ = restarting.handle(.checked(Self.status([Self.config])))
        _ = restarting.handle(.downloaded(Self.configBytes))
        _ = restarting.handle(.written)
        #expect(restarting.handle(.cancelled).isEmpty)
        #expect(restarting.handle(.restarted) == [.progress(UpdateProgress(stage: .confirmUpdate, image: Self.config)), .confirm(Self.config)])
    }

    @Test func aFailureAfterOneInstallEndsWithWhatWasInstalled() {
        var machine = Self.checking()
        _ = machine.handle(.checked(Self.status([Self.config, Self.firmware])))
        _ = machine.handle(.downloaded(Self.configBytes))
        _ = machine.handle(.written)
        _ = machine.handle(.restarted)
        _ = machine.handle(.confirmed)
        #expect(machine.handle(.checked(Self.status([Self.firmware]))) == [.announce(.started(Self.firmware)), .readBattery])
        _ = machine.handle(.battery(percentage: 80))
        _ = machine.handle(.downloaded(Self.firmwareBytes))
        _ = machine.handle(.writeFailed(.notEnoughSpace, message: "full"))
        #expect(machine.result == UpdateResult(type: .notEnoughSpace, applied: [Self.config], message: "full"))
    }

    @Test func restartAndConfirmFailuresAreConfirmFailures() {
        var restart = Self.checking()
        _ = restart.handle(.checked(Self.status([Self.config])))
        _ = restart.handle(.downloaded(Self.configBytes))
        _ = restart.handle(.written)
        _ = restart.handle(.restartFailed(message: "came back on 1.0"))
        #expect(restart.result == UpdateResult(type: .confirmUpdateFailed, applied: [], message: "came back on 1.0"))

        var confirm = Self.checking()
        _ = confirm.handle(.checked(Self.status([Self.config])))
        _ = confirm.handle(.downloaded(Self.configBytes))
        _ = confirm.handle(.written)
        _ = confirm.handle(.restarted)
        _ = confirm.handle(.confirmFailed(message: "not recorded"))
        #expect(confirm.result == UpdateResult(type: .confirmUpdateFailed, applied: [], message: "not recorded"))
    }

    @Test func theSelectionDecidesWhatIsInstalled() {
        var configurationOnly = Self.checking(.pending(includeFirmware: false))
        #expect(
            configurationOnly.handle(.checked(Self.status([Self.firmware])))
                == [.finish(UpdateResult(type: .upToDate, applied: [], message: nil))])

        // Required: only what has a deadline (the firmware here), even after a configuration.
        var required = Self.checking(.required)
        #expect(
            required.handle(.checked(Self.status([Self.config, Self.firmware])))
                == [.announce(.started(Self.firmware)), .readBattery])
    }

    @Test func aCheckThatFailsIsADownloadFailureAndAnswersAfterTheEndChangeNothing() {
        var machine = Self.checking()
        _ = machine.handle(.checkFailed(message: "timed out"))
        #expect(
            machine.result
                == UpdateResult(
                    type: .downloadFailed, applied: [], message: "The gateway did not answer what is pending: timed out"))
        #expect(machine.handle(.confirmed).isEmpty)
        #expect(machine.handle(.checked(Self.status([Self.config]))).isEmpty)
    }
}
