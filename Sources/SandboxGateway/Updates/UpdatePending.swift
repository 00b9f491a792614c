import Foundation
import GatewayAPI

/// What a reader must install, decided from its reported versions, its registration date and
/// the catalogue images of its model and channel. No I/O and no clock: ``TerminalRegistry``
/// passes the time in.
///
/// - Pending: per kind, the newest image whose version is newer than the reader's
///   (``UpdateVersion``); installing it installs every older one too.
/// - Grace: a reader registered at `registeredAt` has until `registeredAt + 3 days` (the TSM
///   seed's new merchants), so an image's effective deadline for it is the later of the
///   image's deadline and the end of the grace period.
/// - Deadline: the earliest effective deadline among *all* images newer than the reader's
///   version, not only the newest of each kind: a newer image published without a deadline
///   does not lift the deadline of one the reader still lacks.
/// - Blocked: that deadline has passed (`now` is after it).
/// - Required: the newest image of each kind that has such a deadline among its newer images;
///   installing it meets them all.
enum UpdatePending {
    /// The three days a newly registered reader gets before deadlines apply.
    static let gracePeriod: TimeInterval = 3 * 24 * 60 * 60

    /// The versions a reader runs and when it registered.
    struct Reader: Sendable, Hashable {
        var firmwareVersion: String
        var configurationVersion: String
        var registeredAt: Date

        func version(of kind: UpdateKind) -> String {
            switch kind {
            case .firmware: firmwareVersion
            case .configuration: configurationVersion
            }
        }
    }

    /// The initialize answer for `reader` given `images` of its model and channel.
    static func answer(for reader: Reader, images: [UpdateImage], now: Date) -> TerminalInitializeResponse {
        let graceUntil = reader.registeredAt.addingTimeInterval(gracePeriod)
        var pending: [UpdateImage] = []
        var deadline: Date?
        var required: [String] = []
        for kind in [UpdateKind.configuration, .firmware] {
            let newer = images.filter {
                $0.kind == kind && UpdateVersion.isNewer($0.version, than: reader.version(of: kind))
            }
            guard let newest = newer.max(by: isOlder) else { continue }
            pending.append(newest)
            if newer.contains(where: { $0.deadline != nil }) { required.append(newest.id) }
            for image in newer {
                guard let due = image.deadline else { continue }
                let effective = max(due, graceUntil)
                deadline = min(deadline ?? effective, effective)
            }
        }
        return TerminalInitializeResponse(
            hasUpdates: !pending.isEmpty, updateDeadline: deadline, pending: pending,
            registeredAt: reader.registeredAt, graceUntil: graceUntil, blocked: deadline.map { now > $0 } ?? false,
            required: required)
    }

    /// Catalogue order: by version, then by publication for versions that compare equal.
    static func isOlder(_ a: UpdateImage, _ b: UpdateImage) -> Bool {
        let order = UpdateVersion.compare(a.version, b.version)
        return order != 0 ? order < 0 : a.publishedAt < b.publishedAt
    }
}
