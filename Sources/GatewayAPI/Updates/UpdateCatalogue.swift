/// `GET /v1/updates`: every image of the sandbox's catalogue, newest first.
public struct UpdateCatalogue: Codable, Sendable, Hashable {
    /// The images, newest published first.
    public var images: [UpdateImage]

    /// Creates a listing.
    public init(images: [UpdateImage]) {
        self.images = images
    }
}
