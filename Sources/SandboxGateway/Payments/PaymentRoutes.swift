import GatewayAPI
import Hummingbird

/// Registers the payment routes (``GatewayRoutes/payments``).
///
/// Stub: every route answers 501/5010 until the payments domain replaces this file.
public func addPaymentRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    for route in GatewayRoutes.payments {
        router.on(route, use: notImplemented)
    }
}
