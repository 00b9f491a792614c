import MPOSCore
import ReaderLink
import SandboxCards

/// Link failures a scenario plays, and the reboot that resets the reader's state.
extension SimulatedReader {
    /// Plays a 90.01–90.05 link failure around the authorization request (`before`) or after
    /// the host's answer arrived. Returns true when the transaction ends here: the SDK then
    /// sees the link drop, a frame fail its MAC, or silence, and must find the outcome at the
    /// host.
    func linkFails(_ failure: SandboxScenario.LinkError, before: Bool) async -> Bool {
        // What the reader said before the failure reaches the SDK first, as it would have.
        let held = holdingEvents
        await releaseEvents()
        holdingEvents = held
        // The fault plan counts writes as the session hands them over, which `emit` has done.
        switch (failure, before) {
        case (.dropBeforeAuthorization, true), (.dropAfterAuthorization, false):
            record(.info, "scenario: the link drops")
            await session?.close()
            return true
        case (.readerReboot, true):
            record(.info, "scenario: the reader reboots")
            // The reader's state resets before its peer can see the link drop.
            let link = session
            await rebooted()
            await link?.close()
            return true
        case (.readerUnresponsive, true):
            record(.info, "scenario: the reader stops answering")
            unresponsive = true
            // Silent on the wire too: the link layer answers pings by itself, and a reader
            // that still pongs is not silent (the SDK's keep-alive would never notice).
            if let transport {
                transport.replacePlan(FaultPlan(
                    configuration.faults.faults + [.stopResponding(fromMessage: transport.writeCount + 1)]))
            }
            return true
        case (.corruptFrame, true):
            // The next frame the reader writes (the authorization request) arrives damaged.
            if let transport {
                let next = transport.writeCount + 1
                transport.replacePlan(FaultPlan(configuration.faults.faults + [.corruptFrame(atMessage: next)]))
            }
            return false
        default:
            return false
        }
    }

    func rebooted() async {
        reboots += 1
        abandonTransaction()
        // Staged bytes kept in a state directory are in flash and survive; in memory they do not.
        if let updating, store == nil { slots.interrupt(updating) }
        updating = nil
        bootCommittedImage()
        scanner.disable()
        scannerWatch?.cancel()
        scannerWatch = nil
        session = nil
        transport = nil
        record(.info, "rebooted")
    }

    /// Boots the image committed before this restart; one that fails to boot
    /// (``SimulatedReaderConfiguration/imagesFailingToBoot``) leaves the reader on its other slot.
    func bootCommittedImage() {
        guard let component = committedBeforeBoot else { return }
        committedBeforeBoot = nil
        guard configuration.imagesFailingToBoot > 0, let failed = slots.active(component) else { return }
        var next = slots
        guard next.rollBack(component) else { return }
        if let failure = stored({ try $0.saveSlots(next) }) {
            record(
                .info,
                "\(component.rawValue) \(failed.version) failed to boot, and the rollback was not stored: \(failure)")
            return
        }
        slots = next
        configuration.imagesFailingToBoot -= 1
        let running = slots.active(component)?.version ?? "nothing"
        record(.info, "\(component.rawValue) \(failed.version) failed to boot: back on \(running)")
    }
}
