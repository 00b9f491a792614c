import MPOSCore
import ReaderLink

/// Dispatch: each request from the SDK to what answers it.
extension SimulatedReader {
    func handle(_ request: IncomingRequest, on device: ReaderDeviceSession) async {
        if unresponsive { return }
        let answer: ReaderMessage?
        switch request.message {
        case .ping: answer = .pong
        case .getDeviceInfo: answer = .deviceInfo(deviceInfo)
        case .getBattery: answer = .battery(batteryStatus)
        case .startTransaction(let start): answer = begin(start)
        case .applicationSelectionResponse(let choice):
            answer = deliverIfWaiting(.application(choice))
        case .signatureResponse(let response):
            answer = deliverIfWaiting(.signature(response))
        case .signatureVerdict(let verdict):
            answer = deliverIfWaiting(
                .signature(SignatureResponse(transactionID: verdict.transactionID, accepted: verdict.accepted, png: [])))
        case .hostResponse(let response):
            answer = deliverIfWaiting(.host(response))
        case .cancelRequest:
            // Handpoint's cancel stops the financial operation or the scanner, whichever runs.
            let scanning = scanner.isEnabled
            if scanning { await scannerStopped("cancelled") }
            if cancelQuestion() {
                answer = .cancelResponse(accepted: true, status: .userCancelled)
            } else if transaction != nil, cancelAllowed {
                cancelAllowed = false
                deliver(.cancelled)
                answer = .cancelResponse(accepted: true, status: .userCancelled)
            } else if transaction == nil, scanning {
                answer = .cancelResponse(accepted: true, status: .success)
            } else {
                answer = .cancelResponse(accepted: false, status: .commandNotAllowed)
            }
        case .inputResponse: answer = .ack
        case .showCart(let cart): answer = show(cart)
        case .collectInput(let question): answer = ask(question, id: request.id, on: device)
        case .setLogLevel(let level):
            log.level = ReaderSimulator.ReaderLogLevel(rawValue: Int(level.rawValue)) ?? .info
            answer = .ack
        case .fetchLogs: answer = .logs(logLines)
        case .resetLogs:
            log.clear()
            answer = .ack
        case .enableScanner where !configuration.hasScanner:
            answer = .error(.scannerIsNotSupported, detail: "this reader has no bar-code scanner")
        case .enableScanner(let scannerConfiguration):
            enableScanner(scannerConfiguration)
            answer = .ack
        case .disableScanner:
            if scanner.isEnabled { await scannerStopped("disabled") }
            answer = .ack
        case .updateBegin(let begin): answer = updateBegin(begin)
        case .updateChunk(let offset, let bytes): answer = updateChunk(offset: offset, bytes: bytes)
        case .updateVerify: answer = updateVerify()
        case .updateCommit: answer = updateCommit()
        case .reboot:
            try? await device.respond(to: request.id, with: .ack)
            // The reader's state resets before its peer can see the link drop.
            await rebooted()
            await device.close()
            return
        default:
            answer = .error(.requestInvalid, detail: "\(request.message.kind) is not a request a reader answers")
        }
        if let answer { try? await device.respond(to: request.id, with: answer) }
    }

    var deviceInfo: DeviceInfo {
        DeviceInfo(
            serialNumber: configuration.serialNumber, manufacturer: configuration.manufacturer,
            model: configuration.model, applicationName: configuration.applicationName,
            applicationVersion: slots.active(.firmware)?.version ?? configuration.applicationVersion,
            emvParameterVersion: slots.active(.configuration)?.version ?? configuration.emvParameterVersion,
            publicKeyVersion: configuration.publicKeyVersion, battery: batteryStatus,
            generalParameterVersion: configuration.generalParameterVersion)
    }
}
