import Foundation

/// What requests and responses share: a header, the encrypted form, and their envelope in JSON.
/// `NexoCrypto` encrypts and decrypts either through it.
public protocol SaleToPOIMessage: Sendable, Equatable {
    /// The envelope's key: `SaleToPOIRequest` or `SaleToPOIResponse`.
    static var root: String { get }
    /// The header.
    var messageHeader: MessageHeader { get }
    /// The ciphertext, when encrypted.
    var nexoBlob: String? { get }
    /// How the ciphertext was made, when encrypted.
    var securityTrailer: SecurityTrailer? { get }
    /// The message in its JSON envelope.
    var encoded: Data { get }
    /// Decodes and checks a message in its JSON envelope.
    static func decoded(from data: Data) throws(NexoError) -> Self
    /// The encrypted form of a message with this header.
    static func secured(header: MessageHeader, blob: String, trailer: SecurityTrailer) -> Self
}

extension SaleToPOIRequest: SaleToPOIMessage {
    /// `SaleToPOIRequest`.
    public static var root: String { "SaleToPOIRequest" }
    /// `NexoCoder.encode(self)`.
    public var encoded: Data { NexoCoder.encode(self) }
    /// `NexoCoder.decodeRequest(data)`.
    public static func decoded(from data: Data) throws(NexoError) -> Self {
        try NexoCoder.decodeRequest(data)
    }
    /// A request carrying only its header, `NexoBlob` and `SecurityTrailer`.
    public static func secured(header: MessageHeader, blob: String, trailer: SecurityTrailer) -> Self {
        SaleToPOIRequest(messageHeader: header, nexoBlob: blob, securityTrailer: trailer)
    }
}

extension SaleToPOIResponse: SaleToPOIMessage {
    /// `SaleToPOIResponse`.
    public static var root: String { "SaleToPOIResponse" }
    /// `NexoCoder.encode(self)`.
    public var encoded: Data { NexoCoder.encode(self) }
    /// `NexoCoder.decodeResponse(data)`.
    public static func decoded(from data: Data) throws(NexoError) -> Self {
        try NexoCoder.decodeResponse(data)
    }
    /// A response carrying only its header, `NexoBlob` and `SecurityTrailer`.
    public static func secured(header: MessageHeader, blob: String, trailer: SecurityTrailer) -> Self {
        SaleToPOIResponse(messageHeader: header, nexoBlob: blob, securityTrailer: trailer)
    }
}
