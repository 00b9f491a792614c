import GatewayAPI
import ReaderLink

extension PaymentReader {
    /// The gateway's description of the reader that answered `info`: its model, serial number,
    /// firmware (payment application) and EMV configuration versions, on `channel`.
    init(_ info: DeviceInfo, channel: UpdateChannel) {
        self.init(
            model: info.model, serialNumber: info.serialNumber, firmwareVersion: info.applicationVersion,
            configurationVersion: info.emvParameterVersion, channel: channel)
    }
}
