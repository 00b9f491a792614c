import GatewayAPI
import Hummingbird

/// Registers the reporting routes (``GatewayRoutes/reporting``).
///
/// Stub: every route answers 501/5010 until the reporting domain replaces this file.
public func addReportingRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    for route in GatewayRoutes.reporting {
        router.on(route, use: notImplemented)
    }
}
