import Foundation
import MPOSCore

/// How the transaction screens look and behave (Adyen's presentation parameters): the
/// merchant's logo and how long the success screen stays.
public struct TransactionScreenParameters: Sendable, Hashable {
    /// The shortest success screen allowed: half a second.
    public static let minimumSuccessScreenTimeout: Duration = .milliseconds(500)
    /// The longest success screen allowed, and the default: four seconds.
    public static let maximumSuccessScreenTimeout: Duration = .seconds(4)
    /// The height of the frame the logo is scaled into, in points (aspect ratio kept).
    public static let logoHeight = 40.0

    /// How long the success screen shows before it is dismissed.
    public let successScreenTimeout: Duration
    /// The merchant's logo (PNG bytes, transparent background so that it reads in dark and light
    /// mode), shown above every step; nil for none.
    public let logo: Data?

    /// Parameters with a success screen of `successScreenTimeout` seconds.
    ///
    /// ```swift
    /// let parameters = try TransactionScreenParameters(successScreenTimeout: 2)
    /// ```
    ///
    /// - Throws: ``MPOSError/invalidArgument`` when the timeout is not within 0.5–4 seconds
    ///   (or is not a number).
    public init(successScreenTimeout: Double = 4, logo: Data? = nil) throws(MPOSError) {
        guard successScreenTimeout.isFinite, (0.5...4).contains(successScreenTimeout) else {
            throw MPOSError.invalidArgument.withMessage(
                "successScreenTimeout is \(successScreenTimeout) s; it must be from 0.5 to 4 seconds.")
        }
        self.successScreenTimeout = .milliseconds(Int64((successScreenTimeout * 1000).rounded()))
        self.logo = logo
    }
}
