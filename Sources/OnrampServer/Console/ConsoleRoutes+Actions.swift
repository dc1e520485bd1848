import Foundation
import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// The console's actions: endpoint changes, test-clock moves, resending an event.
extension ConsoleRoutes {
    func changeEndpoint(_ id: String, form: JSONValue) throws -> HTTPResponse {
        let now = Timestamp.milliseconds(clock.now())
        let enabled: Bool?
        let failNext: Int64?
        switch form["action"]?.stringValue {
        case "enable": (enabled, failNext) = (true, nil)
        case "disable": (enabled, failNext) = (false, nil)
        case "fail":
            guard let text = form["count"]?.stringValue, text.count <= 3, text.allSatisfy(\.isNumber),
                let count = Int64(text), count <= 100
            else { throw HTTPError(status: 400, code: "invalid_request", message: "count is 0 to 100.") }
            (enabled, failNext) = (nil, count)
        default:
            throw HTTPError(status: 400, code: "invalid_request", message: "action is enable, disable or fail.")
        }
        guard
            let projectId = try database.transaction({
                try ConsoleRepository(connection: $0).changeEndpoint(id, enabled: enabled, failNext: failNext, now: now)
            })
        else { throw HTTPError(status: 404, code: "not_found", message: "No webhook endpoint \(id).") }
        return .seeOther("/console/projects/\(ConsolePage.segment(projectId))")
    }

    func advanceClock(_ id: String, minutes text: String?) throws -> HTTPResponse {
        guard let text, text.allSatisfy(\.isNumber), let minutes = Int64(text), (1...43_200).contains(minutes) else {
            throw HTTPError(status: 400, code: "invalid_request", message: "Advance by 1 to 43,200 minutes.")
        }
        do {
            _ = try TestClocks(database: database, clock: clock).advance(projectId: id, seconds: minutes * 60)
        } catch TestClocks.Refusal.liveProject {
            throw HTTPError(
                status: 400, code: "invalid_request", message: "A live-mode project's clock cannot be moved.")
        } catch TestClocks.Refusal.unknownProject {
            throw HTTPError(status: 404, code: "not_found", message: "No project \(id).")
        }
        return .seeOther("/console/projects/\(ConsolePage.segment(id))?clock=advanced")
    }

    func resend(_ id: String, subscription: String) throws -> HTTPResponse {
        let now = Timestamp.milliseconds(clock.now())
        let queued = try database.transaction {
            try ConsoleRepository(connection: $0).resend(eventId: id, subscriptionId: subscription, now: now)
        }
        guard queued else {
            throw HTTPError(
                status: 404, code: "not_found",
                message:
                    "No resendable delivery of event \(id) to endpoint \(subscription) (live Stripe events are not).")
        }
        return .seeOther("/console/events/\(ConsolePage.segment(id))?resent=1")
    }
}
