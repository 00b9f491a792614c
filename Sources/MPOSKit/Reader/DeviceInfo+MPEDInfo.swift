import ReaderLink

/// The keys of the Handpoint seed's `mpedInfo` dictionary, by the seed's constant names.
public enum MPEDInfoKey: String, Sendable, Hashable, CaseIterable {
    /// `kSerialNumberInfoKey`
    case serialNumber = "kSerialNumberInfoKey"
    /// `kPublicKeyVersionInfoKey`
    case publicKeyVersion = "kPublicKeyVersionInfoKey"
    /// `kEMVParamVersionInfoKey`
    case emvParameterVersion = "kEMVParamVersionInfoKey"
    /// `kGeneralParamInfoKey`
    case generalParameters = "kGeneralParamInfoKey"
    /// `kManufacturerCodeInfoKey`
    case manufacturerCode = "kManufacturerCodeInfoKey"
    /// `kModelCodeInfoKey`
    case modelCode = "kModelCodeInfoKey"
    /// `kAppNameInfoKey`
    case applicationName = "kAppNameInfoKey"
    /// `kAppVersionInfoKey`
    case applicationVersion = "kAppVersionInfoKey"
    /// `kXMLDetailsInfoKey`: every other value as one XML document.
    case xmlDetails = "kXMLDetailsInfoKey"
}

extension DeviceInfo {
    /// The reader's description keyed as the Handpoint seed's `mpedInfo`, every key present.
    public var mpedInfo: [MPEDInfoKey: String] {
        var values: [MPEDInfoKey: String] = [
            .serialNumber: serialNumber, .publicKeyVersion: publicKeyVersion, .emvParameterVersion: emvParameterVersion,
            .generalParameters: generalParameterVersion, .manufacturerCode: manufacturer, .modelCode: model,
            .applicationName: applicationName, .applicationVersion: applicationVersion,
        ]
        let elements = MPEDInfoKey.allCases.compactMap { key in
            values[key].map { "<\(key.rawValue)>\(PaymentReceipt.escapeHTML($0))</\(key.rawValue)>" }
        }
        values[.xmlDetails] = "<MPEDInfo>" + elements.joined() + "</MPEDInfo>"
        return values
    }
}
