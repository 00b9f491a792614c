import Crypto
import EMV
import MPOSCore
import ReaderLink

/// Firmware and configuration updates: transfer, verify, commit.
extension SimulatedReader {
    func component(_ slot: UpdateSlot) -> FirmwareSlots.Component {
        slot == .firmware ? .firmware : .configuration
    }

    func updateBegin(_ begin: UpdateBegin) -> ReaderMessage {
        let target = component(begin.slot)
        if let refused = plannedRefusal(at: .begin) { return refused }
        guard Int(begin.size) <= configuration.updateCapacity else {
            return .error(
                .updateNotEnoughSpace,
                detail:
                    "the image has \(begin.size) bytes, the reader room for \(configuration.updateCapacity)")
        }
        do {
            let resuming = slots.banks[target]?.transfer.map {
                $0.version == begin.version && $0.size == Int(begin.size) && $0.expectedSHA256 == begin.sha256
            } ?? false
            try slots.beginTransfer(target, version: begin.version, size: Int(begin.size), sha256: begin.sha256)
            if !resuming, let failure = stored({
                try $0.beginStaged(target, version: begin.version, size: Int(begin.size), sha256: begin.sha256)
            }) {
                slots.interrupt(target)
                return .error(.updateWriteFailed, detail: "update rejected: \(failure)")
            }
            updating = target
            updateAnnouncement = begin
            let offset = slots.resumeOffset(target) ?? 0
            record(.info, "\(target.rawValue) \(begin.version): transfer from byte \(offset) of \(begin.size)")
            return .updateAck(UpdateAck(offset: UInt32(offset), status: .success))
        } catch {
            return .error(.invalidData, detail: "update rejected: \(error)")
        }
    }

    func updateChunk(offset: UInt32, bytes: [UInt8]) -> ReaderMessage {
        guard let updating else { return .error(.commandNotAllowed, detail: "no update in progress") }
        if let refused = plannedRefusal(at: .chunk) { return refused }
        let held = slots.resumeOffset(updating) ?? 0
        do {
            try slots.stage(updating, offset: Int(offset), chunk: bytes)
            if let failure = stored({ try $0.appendStaged(updating, offset: Int(offset), chunk: bytes) }) {
                discardTransfer(updating)
                return .error(.updateWriteFailed, detail: "chunk rejected: \(failure)")
            }
            rewrittenUpdateBytes += max(0, min(held, Int(offset) + bytes.count) - Int(offset))
            return .updateAck(UpdateAck(offset: UInt32(slots.resumeOffset(updating) ?? 0), status: .success))
        } catch .offsetMismatch(let expected) {
            return .updateAck(UpdateAck(offset: UInt32(expected), status: .invalidData))
        } catch {
            return .error(.invalidData, detail: "chunk rejected: \(error)")
        }
    }

    func updateVerify() -> ReaderMessage {
        guard let updating else { return .error(.commandNotAllowed, detail: "no update in progress") }
        if let refused = plannedRefusal(at: .verify) { return refused }
        do {
            try slots.verify(updating)
            guard let announcement = updateAnnouncement, signatureHolds(announcement) else {
                discardTransfer(updating)
                record(.info, "\(updating.rawValue) image refused: its signature does not hold for this reader")
                return .error(.updateVerificationFailed, detail: "the image's signature does not hold")
            }
            return .updateAck(UpdateAck(offset: UInt32(slots.resumeOffset(updating) ?? 0), status: .success))
        } catch {
            // A digest mismatch discarded the staged bytes: so does the flash.
            if slots.resumeOffset(updating) == nil { store?.clearStaged(updating) }
            return .error(.updateVerificationFailed, detail: "\(error)")
        }
    }

    func updateCommit() -> ReaderMessage {
        guard let updating else { return .error(.commandNotAllowed, detail: "no update in progress") }
        if let refused = plannedRefusal(at: .commit) { return refused }
        do {
            // The new slots reach the flash before they take effect: a reader killed before the
            // rename boots the old image, after it the new one.
            var next = slots
            let image = try next.commit(updating)
            if let failure = stored({ try $0.saveSlots(next) }) {
                return .error(.updateWriteFailed, detail: "commit refused: \(failure)")
            }
            slots = next
            store?.clearStaged(updating)
            self.updating = nil
            committedBeforeBoot = updating
            record(.info, "\(updating.rawValue) \(image.version) active")
            return .ack
        } catch {
            return .error(.commandNotAllowed, detail: "commit refused: \(error)")
        }
    }
}

extension SimulatedReader {
    /// The `error` answer of the first configured refusal of `step` with refusals left, which
    /// it uses up; nil when the step goes ahead.
    func plannedRefusal(at step: UpdateRefusal.Step) -> ReaderMessage? {
        guard
            let index = configuration.updateRefusals.firstIndex(where: { $0.step == step && $0.times != 0 })
        else { return nil }
        let refusal = configuration.updateRefusals[index]
        if let times = refusal.times { configuration.updateRefusals[index].times = times - 1 }
        record(.info, "update \(step) refused on purpose: \(refusal.status.description)")
        return .error(refusal.status, detail: refusal.detail)
    }

    /// Runs `write` on the state directory, if there is one and the reader has power. The
    /// failure's description, or nil.
    func stored(_ write: (FirmwareSlotStore) throws -> Void) -> String? {
        guard let store, !poweredOff else { return nil }
        do { try write(store) } catch {
            record(.info, "state directory: \(error)")
            return "\(error)"
        }
        return nil
    }

    /// Drops the transfer in progress, in memory and in the flash.
    func discardTransfer(_ component: FirmwareSlots.Component) {
        slots.interrupt(component)
        if !poweredOff { store?.clearStaged(component) }
        if updating == component { updating = nil }
    }

    /// Whether the announced image is signed by the reader's update key for its own model and
    /// channel: an image for another model or channel fails here even with a valid signature.
    func signatureHolds(_ begin: UpdateBegin) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: configuration.updatePublicKey) else {
            return false
        }
        let message = UpdateSigning.message(
            model: configuration.model, kind: component(begin.slot).rawValue,
            version: begin.version, size: Int64(begin.size), sha256Hex: Hex.encode(begin.sha256).lowercased(),
            channel: configuration.updateChannel)
        return key.isValidSignature(begin.signature, for: message)
    }
}
