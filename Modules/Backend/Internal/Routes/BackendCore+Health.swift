import Foundation
import Storage
import Wire

extension BackendCore {
    /// `GET /healthz`: 200 `{"status":"ok"}` when the database answers a query, else 503 with
    /// the reason, for a load balancer's health checks (HAProxy's `option httpchk`): a server
    /// whose database is gone is taken out of rotation instead of answering 500s. Needs no token.
    func health(_ route: RouteRequest) -> Response {
        do {
            _ = try read { db in try db.queryFirst("SELECT 1") { try $0.int(0) } }
            return .json(200, Data(#"{"status":"ok"}"#.utf8))
        } catch {
            let reason = (error as? StorageError)?.message ?? "\(error)"
            return .error(
                503, code: "unavailable",
                message: "the backend's database does not answer: \(reason.prefix(300))",
                headers: ["Retry-After": "1"])
        }
    }
}
