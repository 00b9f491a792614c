/// Where a terminal on the LAN takes Terminal API requests over HTTP, as Adyen's terminals
/// do: each `SaleToPOIRequest` is posted as JSON to this path, and the response is the
/// answer's body.
public enum NexoEndpoint {
    /// The HTTP method of a Terminal API request.
    public static let method = "POST"
    /// The path of a Terminal API request, relative to the terminal's base URL.
    public static let path = "/nexo"
    /// The content type of requests and responses.
    public static let contentType = "application/json"
}
