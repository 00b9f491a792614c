import GatewayAPI
import Hummingbird
import Logging

/// Turns every error a route throws into a JSON ``GatewayErrorBody``: gateway errors keep
/// their code, Hummingbird's HTTP errors are mapped by status (unknown paths → 4041, a
/// known path with another method → 405/4050 with `Allow`, oversized bodies → 4130), anything else becomes 5000 and is logged by type only.
struct GatewayErrorMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GatewayError {
            return GatewayResponse.error(error)
        } catch let error as GatewayErrorBody {
            return GatewayResponse.error(GatewayError(code: error.code, error.message))
        } catch let error as DecodingError {
            return GatewayResponse.error(RequestDecoding.decodingError(error, body: nil))
        } catch let error as HTTPError {
            if error.status == .notFound {
                // The router found no route; a known path called with another method is 405.
                let allowed = GatewayRoutes.allowedMethods(forPath: request.uri.path)
                if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
                    return GatewayResponse.methodNotAllowed(request.method, allowed: allowed)
                }
            }
            return GatewayResponse.error(Self.map(error.status))
        } catch let error as any HTTPResponseError {
            return GatewayResponse.error(Self.map(error.status))
        } catch {
            context.logger.error("Unexpected error", metadata: ["error.type": "\(type(of: error))"])
            return GatewayResponse.error(.internalError())
        }
    }

    static func map(_ status: HTTPResponse.Status) -> GatewayError {
        switch status {
        case .notFound:
            GatewayError(code: GatewayErrorCode.noSuchRoute, "No route matches this method and path.")
        case .methodNotAllowed:
            GatewayError(code: GatewayErrorCode.methodNotAllowed, "This path does not take this method.")
        case .contentTooLarge: GatewayError(code: GatewayErrorCode.bodyTooLarge, "The body is too large.")
        case .unsupportedMediaType:
            GatewayError(code: GatewayErrorCode.unsupportedMediaType, "Unsupported media type.")
        case .unauthorized: .unauthorized()
        case .badRequest: .malformed("Bad request.")
        default:
            status.code >= 500
                ? .internalError() : GatewayError(code: status.code * 10, status.reasonPhrase)
        }
    }
}
