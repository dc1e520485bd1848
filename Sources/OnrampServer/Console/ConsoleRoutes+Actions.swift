import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The console's actions: endpoint changes, test-clock moves, key revocations, resending an event.
/// ``ConsoleService`` makes the changes; these answer with the page to return to.
extension ConsoleRoutes {
    var actions: ConsoleService { ConsoleService(database: database, clock: clock, callers: callers) }

    func revokeKey(_ id: String) throws -> HTTPResponse {
        guard let key = try actions.revokeKey(id) else {
            throw ConsoleRefusal.notFound("No API key \(id).")
        }
        return .seeOther("/console/projects/\(ConsolePage.segment(key.projectId))?key=revoked")
    }

    func changeEndpoint(_ id: String, form: JSONValue) throws -> HTTPResponse {
        let change: EndpointChange
        do {
            change = try EndpointChange(form: form)
        } catch {
            throw ConsoleRefusal.invalid(error.message)
        }
        guard let projectId = try actions.changeEndpoint(id, change) else {
            throw ConsoleRefusal.notFound("No webhook endpoint \(id).")
        }
        return .seeOther("/console/projects/\(ConsolePage.segment(projectId))")
    }

    func advanceClock(_ id: String, minutes text: String?) throws -> HTTPResponse {
        guard let text, text.allSatisfy(\.isNumber), let minutes = Int64(text), (1...43_200).contains(minutes) else {
            throw ConsoleRefusal.invalid("Advance by 1 to 43,200 minutes.")
        }
        do {
            try actions.advanceClock(projectId: id, minutes: minutes)
        } catch TestClocks.Refusal.liveProject {
            throw ConsoleRefusal.invalid("A live-mode project's clock cannot be moved.")
        } catch TestClocks.Refusal.unknownProject {
            throw ConsoleRefusal.notFound("No project \(id).")
        }
        return .seeOther("/console/projects/\(ConsolePage.segment(id))?clock=advanced")
    }

    func resend(_ id: String, subscription: String) throws -> HTTPResponse {
        guard try actions.resend(eventId: id, subscriptionId: subscription) else {
            throw ConsoleRefusal.notFound(
                "No resendable delivery of event \(id) to endpoint \(subscription) (live Stripe events are not).")
        }
        return .seeOther("/console/events/\(ConsolePage.segment(id))?resent=1")
    }
}
