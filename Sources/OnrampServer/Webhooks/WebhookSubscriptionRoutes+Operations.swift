import HTTPServer
import OnrampServices
import OnrampWire

extension WebhookSubscriptionRoutes {
    /// The OpenAPI operations of the CDP webhook subscriptions API.
    enum Operations {
        // MARK: - Request schemas

        /// The event types a subscription receives (`*`: every type): 1 to 50 names of 1 to 100 characters.
        static let eventTypes = APISchema(json: [
            "type": "array", "items": APISchema.string(minLength: 1, maxLength: 100).json, "minItems": 1,
            "maxItems": 50,
        ])

        /// Custom delivery headers: at most 20 token names of 1 to 64 characters, visible ASCII values.
        static let customHeaders = APISchema(json: [
            "type": "object", "maxProperties": 20,
            "propertyNames": APISchema.string(pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$").json,
            "additionalProperties": APISchema.string(maxLength: 1024, pattern: "^[\\t\\x20-\\x7E]*$").json,
            "description": "Not Content-Type, Host, the X-Event-… or X-Hook0-Signature headers, nor framing ones.",
        ])

        /// Metadata or labels: at most 50 keys of 1 to 40 bytes, values of at most 500.
        static let stringMap = APISchema(json: [
            "type": "object", "maxProperties": 50, "propertyNames": APISchema.string(minLength: 1, maxLength: 40).json,
            "additionalProperties": APISchema.string(maxLength: 500).json,
        ])

        /// Where deliveries go.
        static let targetRequest = APISchema.object(
            [
                "url": APISchema.string(minLength: 1, maxLength: 2048).described(
                    "An https URL (http only to localhost), not at a private address."),
                "headers": customHeaders,
            ], required: ["url"])

        /// The fields of a subscription; `required` names those creation needs.
        private static func subscriptionRequest(required: [String]) -> APISchema {
            .object(
                [
                    "description": .string(maxLength: 500), "eventTypes": eventTypes, "target": targetRequest,
                    "isEnabled": .boolean, "metadata": stringMap, "labels": stringMap,
                    "labelKey": APISchema.string(minLength: 1, maxLength: 40).described("One label, the older way."),
                    "labelValue": APISchema.string.described("labelKey's value (needed with it), at most 500 bytes."),
                ], required: required)
        }

        /// `POST` body: eventTypes and target are required.
        static let createRequest = subscriptionRequest(required: ["eventTypes", "target"])
        /// `PUT` body: only the fields sent change.
        static let updateRequest = subscriptionRequest(required: [])

        // MARK: - Operations

        /// The page size of the lists: 1 to 100, 20 by default.
        static let pageSize = APIParameter("pageSize", .integer(minimum: 1, maximum: 100))

        /// `POST /platform/v2/data/webhooks/subscriptions`.
        static let createSubscription = APIOperation.cdp(
            "POST /platform/v2/data/webhooks/subscriptions",
            "createWebhookSubscription", "Creates a webhook subscription and its signing secret.", tag: "Webhooks",
            auth: .apiKeyJWT, body: createRequest, status: 201, response: CDPWebhookSubscription.schema)

        /// `GET /platform/v2/data/webhooks/subscriptions`.
        static let listSubscriptions = APIOperation.cdp(
            "GET /platform/v2/data/webhooks/subscriptions",
            "listWebhookSubscriptions", "Lists the project's webhook subscriptions, newest first.", tag: "Webhooks",
            auth: .apiKeyJWT,
            query: [pageSize, APIParameter("pageToken", APISchema.string.described("A nextPageToken."))],
            response: CDPWebhookSubscriptionList.schema)

        /// `GET /platform/v2/data/webhooks/subscriptions/{subscriptionId}`.
        static let getSubscription = APIOperation.cdp(
            "GET /platform/v2/data/webhooks/subscriptions/{subscriptionId}",
            "getWebhookSubscription", "Returns a webhook subscription.", tag: "Webhooks", auth: .apiKeyJWT,
            response: CDPWebhookSubscription.schema)

        /// `PUT /platform/v2/data/webhooks/subscriptions/{subscriptionId}`: an empty body changes nothing.
        static let updateSubscription: APIOperation = {
            var operation = APIOperation.cdp(
                "PUT /platform/v2/data/webhooks/subscriptions/{subscriptionId}",
                "updateWebhookSubscription", "Changes the fields sent of a webhook subscription.", tag: "Webhooks",
                auth: .apiKeyJWT, body: updateRequest, response: CDPWebhookSubscription.schema)
            operation.body?.required = false
            return operation
        }()

        /// `DELETE /platform/v2/data/webhooks/subscriptions/{subscriptionId}`: 204 without a body.
        static let deleteSubscription = APIOperation(
            "DELETE /platform/v2/data/webhooks/subscriptions/{subscriptionId}",
            id: "deleteWebhookSubscription", summary: "Deletes a webhook subscription and its pending deliveries.",
            tag: "Webhooks", security: [["cdpApiKey"]],
            responses: [
                APIResponse(status: "204", description: "Deleted."),
                .json(400, "A refused request.", .reference(APIComponents.cdpError)).ranged("4XX"),
                .json(500, "The server or its store failed.", .reference(APIComponents.cdpError)).ranged("5XX"),
            ])

        /// `GET /platform/v2/data/webhooks/subscriptions/{subscriptionId}/events`.
        static let listSubscriptionEvents = APIOperation.cdp(
            "GET /platform/v2/data/webhooks/subscriptions/{subscriptionId}/events",
            "listWebhookSubscriptionEvents", "Lists a subscription's event deliveries, newest first.",
            tag: "Webhooks", auth: .apiKeyJWT,
            query: [
                pageSize, APIParameter("eventId", .string(maxLength: 64)),
                APIParameter("minCreatedAt", APISchema.string(maxLength: 40).described("RFC 3339.")),
                APIParameter("maxCreatedAt", APISchema.string(maxLength: 40).described("RFC 3339.")),
                APIParameter(
                    "eventTypeNames", APISchema.string(maxLength: 400).described("Comma-separated event types.")),
            ], response: CDPWebhookEventList.schema)
    }
}
