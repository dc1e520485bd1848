import HTTPServer
import OnrampServices
import OnrampWire

extension WebhookEndpointRoutes {
    /// The OpenAPI operations of Stripe's `/v1/webhook_endpoints`.
    enum Operations {
        // MARK: - Request schemas

        /// The event types an endpoint receives (`*`: every type): 1 to 100 names of 1 to 100 characters.
        static let enabledEvents = APISchema(json: [
            "type": "array", "items": APISchema.string(minLength: 1, maxLength: 100).json, "minItems": 1,
            "maxItems": 100,
        ])

        /// Metadata: at most 50 keys of 1 to 40 bytes, values of at most 500.
        static let metadata = APISchema(json: [
            "type": "object", "maxProperties": 50, "propertyNames": APISchema.string(minLength: 1, maxLength: 40).json,
            "additionalProperties": APISchema.string(maxLength: 500).json,
        ])

        /// The target URL: https (http only to localhost), not at a private address.
        static let url = APISchema.string(minLength: 1, maxLength: 2048)
        /// A parameter accepted for compatibility and ignored.
        static let ignored = APISchema.anyValue.described("Accepted and ignored.")

        /// `POST /v1/webhook_endpoints`: other parameters are refused.
        static let createForm = APISchema.object(
            [
                "url": url, "enabled_events": enabledEvents, "description": .string(maxLength: 5000),
                "metadata": metadata, "api_version": ignored, "connect": ignored, "expand": ignored,
            ], required: ["url", "enabled_events"], closed: true)

        /// `POST /v1/webhook_endpoints/{id}`: only the parameters sent change; other parameters are refused.
        static let updateForm = APISchema.object(
            [
                "url": url, "enabled_events": enabledEvents, "description": .string(maxLength: 5000),
                "metadata": APISchema.anyOf([metadata, .constant("")]).described(
                    "Merged key by key: a key sent empty is unset; `metadata=` (empty) unsets them all."),
                "disabled": .enumeration(["true", "false"]), "api_version": ignored, "connect": ignored,
                "expand": ignored,
            ], closed: true)

        // MARK: - Operations

        /// These routes do not read `Idempotency-Key`, which the Stripe builder adds to every form.
        private static func withoutIdempotencyKey(_ operation: APIOperation) -> APIOperation {
            var operation = operation
            operation.headers.removeAll { $0.name == "Idempotency-Key" }
            return operation
        }

        /// `POST /v1/webhook_endpoints`.
        static let createEndpoint = withoutIdempotencyKey(
            .stripe(
                "POST /v1/webhook_endpoints", "createWebhookEndpoint",
                "Creates a webhook endpoint and its signing secret.", tag: "Webhooks",
                auth: .secretKey, form: createForm, response: StripeWebhookEndpoint.schema(withSecret: true)))

        /// `GET /v1/webhook_endpoints`.
        static let listEndpoints = APIOperation.stripe(
            "GET /v1/webhook_endpoints",
            "listWebhookEndpoints", "Lists the webhook endpoints of the key's mode, newest first.", tag: "Webhooks",
            auth: .secretKey,
            query: [
                APIParameter("limit", .integer(minimum: 1, maximum: 100)),
                APIParameter("starting_after", APISchema.string.described("An endpoint id: the page after it.")),
            ],
            response: StripeList<StripeWebhookEndpoint>.schema(
                url: .constant(WebhookEndpointRoutes.basePath), item: StripeWebhookEndpoint.schema))

        /// `GET /v1/webhook_endpoints/{id}`.
        static let getEndpoint = APIOperation.stripe(
            "GET /v1/webhook_endpoints/{id}",
            "getWebhookEndpoint", "Returns a webhook endpoint.", tag: "Webhooks", auth: .secretKey,
            response: StripeWebhookEndpoint.schema)

        /// `POST /v1/webhook_endpoints/{id}`.
        static let updateEndpoint = withoutIdempotencyKey(
            .stripe(
                "POST /v1/webhook_endpoints/{id}", "updateWebhookEndpoint",
                "Changes a webhook endpoint's URL, events, description, metadata or status.",
                tag: "Webhooks", auth: .secretKey, form: updateForm, response: StripeWebhookEndpoint.schema))

        /// `DELETE /v1/webhook_endpoints/{id}`.
        static let deleteEndpoint = APIOperation.stripe(
            "DELETE /v1/webhook_endpoints/{id}",
            "deleteWebhookEndpoint", "Deletes a webhook endpoint and its pending deliveries.", tag: "Webhooks",
            auth: .secretKey, response: StripeDeletedObject.schema(object: .constant("webhook_endpoint")))
    }
}
