/// The rules a whole message follows beyond its fields' types: one body that matches the
/// header, a ServiceID for the Service class, and both halves of an encrypted message.
enum MessageShape {
    static func check(_ message: SaleToPOIRequest) throws(NexoError) {
        let bodies: [(String, MessageCategory?)] = [
            message.paymentRequest.map { _ in ("PaymentRequest", .payment) },
            message.reversalRequest.map { _ in ("ReversalRequest", .reversal) },
            message.transactionStatusRequest.map { _ in ("TransactionStatusRequest", .transactionStatus) },
            message.abortRequest.map { _ in ("AbortRequest", .abort) },
            message.diagnosisRequest.map { _ in ("DiagnosisRequest", .diagnosis) },
            message.loginRequest.map { _ in ("LoginRequest", .login) },
            message.logoutRequest.map { _ in ("LogoutRequest", .logout) },
            message.cardAcquisitionRequest.map { _ in ("CardAcquisitionRequest", .cardAcquisition) },
            message.enableServiceRequest.map { _ in ("EnableServiceRequest", .enableService) },
            message.displayRequest.map { _ in ("DisplayRequest", .display) },
            message.inputRequest.map { _ in ("InputRequest", .input) },
            message.printRequest.map { _ in ("PrintRequest", .print) },
            message.storedValueRequest.map { _ in ("StoredValueRequest", .storedValue) },
            message.eventNotification.map { _ in ("EventNotification", .event) },
        ].compactMap { $0 }
        let type = message.messageHeader.messageType
        let expected: Set<MessageType> = message.eventNotification != nil ? [.notification] : [.request]
        try check(
            root: "SaleToPOIRequest", header: message.messageHeader, bodies: bodies,
            blob: message.nexoBlob, trailer: message.securityTrailer != nil)
        if message.nexoBlob == nil, !expected.contains(type) {
            throw NexoError(
                .bodyMismatch, field: "SaleToPOIRequest.MessageHeader.MessageType",
                message: "\(type.rawValue) in a request")
        }
    }

    static func check(_ message: SaleToPOIResponse) throws(NexoError) {
        let bodies: [(String, MessageCategory?)] = [
            message.paymentResponse.map { _ in ("PaymentResponse", .payment) },
            message.reversalResponse.map { _ in ("ReversalResponse", .reversal) },
            message.transactionStatusResponse.map { _ in ("TransactionStatusResponse", .transactionStatus) },
            message.diagnosisResponse.map { _ in ("DiagnosisResponse", .diagnosis) },
            message.loginResponse.map { _ in ("LoginResponse", .login) },
            message.logoutResponse.map { _ in ("LogoutResponse", .logout) },
            message.cardAcquisitionResponse.map { _ in ("CardAcquisitionResponse", .cardAcquisition) },
            message.enableServiceResponse.map { _ in ("EnableServiceResponse", .enableService) },
            message.displayResponse.map { _ in ("DisplayResponse", .display) },
            message.inputResponse.map { _ in ("InputResponse", .input) },
            message.printResponse.map { _ in ("PrintResponse", .print) },
            message.storedValueResponse.map { _ in ("StoredValueResponse", .storedValue) },
        ].compactMap { $0 }
        try check(
            root: "SaleToPOIResponse", header: message.messageHeader, bodies: bodies,
            blob: message.nexoBlob, trailer: message.securityTrailer != nil)
        if message.messageHeader.messageType != .response {
            throw NexoError(
                .bodyMismatch, field: "SaleToPOIResponse.MessageHeader.MessageType",
                message: "\(message.messageHeader.messageType.rawValue) in a response")
        }
    }

    private static func check(
        root: String, header: MessageHeader, bodies: [(String, MessageCategory?)], blob: String?,
        trailer: Bool
    ) throws(NexoError) {
        if header.messageClass == .service, header.serviceID == nil {
            throw NexoError(
                .missingField, field: "\(root).MessageHeader.ServiceID",
                message: "mandatory for MessageClass Service")
        }
        if blob != nil || trailer {
            guard blob != nil else {
                throw NexoError(
                    .missingField, field: "\(root).NexoBlob",
                    message: "a SecurityTrailer without its NexoBlob")
            }
            guard trailer else {
                throw NexoError(
                    .missingField, field: "\(root).SecurityTrailer",
                    message: "a NexoBlob without its SecurityTrailer")
            }
            guard bodies.isEmpty else {
                throw NexoError(
                    .bodyCount, field: "\(root).\(bodies[0].0)", message: "a plain body beside a NexoBlob")
            }
            return
        }
        guard bodies.count == 1, let body = bodies.first else {
            throw NexoError(
                .bodyCount, field: root,
                message: bodies.isEmpty
                    ? "no message body"
                    : "\(bodies.count) message bodies (\(bodies.map(\.0).joined(separator: ", ")))")
        }
        if let category = body.1, category != header.messageCategory {
            throw NexoError(
                .bodyMismatch, field: "\(root).MessageHeader.MessageCategory",
                message: "\(header.messageCategory.rawValue) with a \(body.0)")
        }
    }
}
