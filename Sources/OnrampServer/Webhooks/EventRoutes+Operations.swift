import HTTPServer
import OnrampServices
import OnrampWire

extension EventRoutes {
    /// The OpenAPI operations of Stripe's `/v1/events`.
    enum Operations {
        /// The event's object as it was when the event happened (a `crypto.onramp_session`).
        static let eventData = APISchema.object(["object": .anyObject], required: ["object"])

        /// A Stripe `event`, as stored and as delivered.
        static let event = APISchema.object(
            [
                "id": .string, "object": .constant("event"), "api_version": .string, "type": .string,
                "created": .integer, "livemode": .boolean, "data": eventData,
            ], required: ["id", "object", "type", "created", "livemode", "data"])

        /// A page of events, newest first.
        static let eventList = StripeList<StripeEvent<JSONValue>>.schema(url: .constant("/v1/events"), item: event)

        /// `GET /v1/events`.
        static let listEvents = APIOperation.stripe(
            "GET /v1/events",
            "listEvents", "Lists the project's events of the key's mode, newest first.", tag: "Events",
            auth: .secretKey,
            query: [
                APIParameter("limit", .integer(minimum: 1, maximum: 100)),
                APIParameter(
                    "type", APISchema.string.described("An event type, or a prefix ending in .* (crypto.*).")),
                APIParameter("starting_after", APISchema.string.described("An event id: the page after it.")),
            ], response: eventList)

        /// `GET /v1/events/{id}`.
        static let getEvent = APIOperation.stripe(
            "GET /v1/events/{id}",
            "getEvent", "Returns an event of the key's mode.", tag: "Events", auth: .secretKey, response: event)
    }
}
