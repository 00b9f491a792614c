import Crypto
import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// Writing an image to the reader, its restart, and the confirmation.
extension TerminalUpdates {
    /// How many times a write resumes after a lost link before it gives up.
    static let writeResumeAttempts = 3
    /// How many times a write begins again after the reader refused to store it
    /// (``ReaderStatusCode/updateWriteFailed``) before it gives up.
    static let writeRefusalAttempts = 3
    /// How long the reader may take to verify or commit an image.
    static let imageCheckTimeout: Duration = .seconds(60)

    struct UpdateFailure: Error {
        var type: UpdateResultType
        var message: String
    }

    /// Writes `bytes` to the reader from the offset it already holds, a window of pieces at a
    /// time, then has it verify and commit them; after a lost link, reconnects and resumes.
    func write(
        _ bytes: [UInt8], of image: UpdateImage, window: Int,
        progress: AsyncStream<UpdateProgress>.Continuation?
    ) async -> UpdateFailure? {
        // The signature was checked (integrityProblem) before any byte reaches the reader.
        let begin = UpdateBegin(
            slot: image.kind == .firmware ? .firmware : .configuration, size: UInt32(bytes.count),
            sha256: Array(SHA256.hash(data: bytes)), version: image.version,
            signature: (try? Hex.decode(image.signature)) ?? [])
        // The reader's answers come on its connection's executor; this forwards how far it has
        // the image to the stages and, on the terminal, to the update events.
        let (written, report) = AsyncStream.makeStream(of: Int64.self)
        let total = Int64(bytes.count)
        async let forwarded: Void = {
            for await done in written {
                progress?.yield(UpdateProgress(stage: .writeFileToTerminal, image: image, bytesDone: done, bytesTotal: total))
                self.events.emit(.readerUpdate(.progress(image, percent: total == 0 ? 100 : Double(done) * 100 / Double(total))))
            }
        }()
        let failure = await write(begin, bytes, of: image, window: window, report: report)
        report.finish()
        await forwarded
        return failure
    }

    private func write(
        _ begin: UpdateBegin, _ bytes: [UInt8], of image: UpdateImage, window: Int,
        report: AsyncStream<Int64>.Continuation
    ) async -> UpdateFailure? {
        var resumes = 0
        var refusals = 0
        while true {
            guard let link = await reader.link else {
                return UpdateFailure(type: .terminalWriteFailed, message: "The reader link is gone.")
            }
            do {
                try await transfer(bytes, begin: begin, window: window, link: link, report: report)
                return nil
            } catch .rejected(let status, let detail) {
                // The status decides, never the detail text: that is for people and may change.
                let message = "\(status.description): \(detail)"
                switch status {
                case .updateNotEnoughSpace: return UpdateFailure(type: .notEnoughSpace, message: message)
                case .updateVerificationFailed: return UpdateFailure(type: .hashCheckFailed, message: message)
                case .updateWriteFailed:
                    // A flash write can fail once and hold the next time; the reader keeps what it
                    // stored, so beginning again resumes there.
                    refusals += 1
                    guard refusals <= Self.writeRefusalAttempts else {
                        return UpdateFailure(
                            type: .terminalWriteFailed,
                            message: "The reader refused to store the image \(refusals) times: \(message)")
                    }
                default: return UpdateFailure(type: .terminalWriteFailed, message: message)
                }
            } catch {
                resumes += 1
                guard resumes <= Self.writeResumeAttempts else {
                    return UpdateFailure(type: .terminalWriteFailed, message: "The link failed \(resumes) times: \(error).")
                }
                await reader.close()
                if let failure = await reader.reachAgain() {
                    return UpdateFailure(type: .terminalWriteFailed, message: failure)
                }
            }
        }
    }

    private func transfer(
        _ bytes: [UInt8], begin: UpdateBegin, window: Int, link: ReaderConnection,
        report: AsyncStream<Int64>.Continuation
    ) async throws(ReaderLinkError) {
        guard case .updateAck(let start) = try await link.request(.updateBegin(begin)) else {
            throw .malformed(detail: "updateBegin was not answered with updateAck")
        }
        var offset = Int(start.offset)
        report.yield(Int64(offset))
        // One sliding window over the rest of the image; the reader's answers say what it holds.
        while offset < bytes.count {
            let pieces = stride(from: offset, to: bytes.count, by: Self.updateChunkSize).map { start in
                ReaderMessage.updateChunk(
                    offset: UInt32(start), bytes: Array(bytes[start..<min(start + Self.updateChunkSize, bytes.count)]))
            }
            let answers = try await link.requestWindowed(pieces, window: window) { index, answer in
                // How far the reader has it, every 16 pieces (64 KiB) and at the end.
                guard index % 16 == 15 || index == pieces.count - 1,
                    case .updateAck(let ack) = answer, ack.status == ReaderStatusCode.success
                else { return }
                report.yield(Int64(ack.offset))
            }
            var held = offset
            for answer in answers {
                guard case .updateAck(let ack) = answer else {
                    throw .malformed(detail: "updateChunk was not answered with updateAck")
                }
                held = Int(ack.offset)
                if ack.status != ReaderStatusCode.success { break }  // a gap: go on from what the reader holds
            }
            guard held > offset else { throw .malformed(detail: "the reader took no piece at offset \(offset)") }
            offset = held
        }
        _ = try await link.request(.updateVerify, timeout: Self.imageCheckTimeout)
        _ = try await link.request(.updateCommit, timeout: Self.imageCheckTimeout)
    }

    /// Restarts the reader on its new `image` and reconnects. Nil when it is back.
    func restart(onto image: UpdateImage) async -> String? {
        if let serial = await reader.info?.serialNumber {
            settings.troubles.restarted(onto: image.id, reader: serial)
        }
        if let link = await reader.link {
            // The reader may restart before it answers: whether it did shows when it is reached again.
            _ = try? await link.request(.reboot)
        }
        await reader.close()
        return await reader.reachAgain()
    }

    /// Checks the reader runs `image` and has the gateway record it. Nil when both hold.
    func confirm(_ image: UpdateImage) async -> String? {
        let info: DeviceInfo
        do { info = try await reader.deviceInfo() } catch { return "The reader did not report its versions: \(error.message)" }
        let running = image.kind == .firmware ? info.applicationVersion : info.emvParameterVersion
        guard running == image.version else {
            return "The reader runs \(image.kind.rawValue) \(running), not \(image.version), after its restart."
        }
        do {
            let answer = try await client.confirmInstall(
                InstallConfirmation(serialNumber: info.serialNumber, imageID: image.id))
            settings.reader.learned(TerminalUpdateStatus(answer), reader: info.serialNumber)
            return nil
        } catch {
            return "The gateway did not record the install: \(error.message)"
        }
    }
}
