/// GatewayAPI: the HTTP contract between the SDK and a gateway.
public enum GatewayAPIInfo {
    /// The API version prefix of every path.
    public static let pathPrefix = "/v1"
}
