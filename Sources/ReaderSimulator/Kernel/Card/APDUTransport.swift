/// Where an ``APDUCard`` sends its commands: a card in a PC/SC reader, or a card in memory.
///
/// A transport moves bytes only; the transport rules of ISO 7816 (T=0's `61xx` and `6Cxx`) are
/// ``ISO7816Channel``'s, once for every transport.
public protocol APDUTransport: Sendable {
    /// Sends one command APDU and returns the card's response, status words included.
    /// - Throws: ``CardError`` with ``CardError/Kind/removed`` when the card is gone, or
    ///   ``CardError/Kind/transport`` when the reader failed.
    func transmit(_ command: [UInt8]) throws(CardError) -> [UInt8]
}
