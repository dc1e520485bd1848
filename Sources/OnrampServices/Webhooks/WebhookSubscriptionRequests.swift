import OnrampWire

extension WebhookSubscriptionChange {
    /// A CDP subscription body (cdp-sdk's `WebhookSubscriptionRequest` and `…UpdateRequest`): `target`
    /// with its `url` and `headers`, `eventTypes`, `description`, `isEnabled`, `metadata`, `labels`, or
    /// the older `labelKey`/`labelValue` pair. Creation needs `target` and `eventTypes`; the URL must be one
    /// `targets` lets deliveries reach. Fields it does
    /// not know are ignored, as in the rest of the CDP family.
    package init(cdpBody body: JSONValue, creating: Bool, targets: WebhookTargetPolicy) throws(FieldError) {
        let fields = RequestFields(body)
        description = try fields.optional("description", maxLength: 500, multiline: true)
        if let types = try fields.optionalList("eventTypes", maxCount: 50, maxLength: 100) {
            guard !types.isEmpty, types.allSatisfy({ !$0.isEmpty }) else {
                throw fields.invalid("eventTypes", "eventTypes must list at least one event type.")
            }
            eventTypes = types
        } else if creating {
            throw fields.invalid("eventTypes", "Missing required field eventTypes.")
        }
        if let target = try fields.object("target") {
            url = try WebhookTargetURL.validate(
                try target.required("url", maxLength: 2048), param: "target.url", code: "invalid_request",
                policy: targets)
            if let headers = target.body["headers"], !headers.isNull {
                guard let members = headers.objectValue, members.count <= 20,
                    members.allSatisfy({ Self.isAllowedHeader($0.0, value: $0.1.stringValue) })
                else {
                    throw fields.invalid(
                        "target.headers",
                        "target.headers must map at most 20 header names to values of at most 1024 visible characters, and may not set the signed or framing headers."
                    )
                }
                self.headers = members.compactMap { name, value in value.stringValue.map { (name, $0) } }
            }
        } else if creating {
            throw fields.invalid("target", "Missing required field target.")
        }
        enabled = try fields.optionalBool("isEnabled")
        metadata = try fields.optionalStringMap("metadata").map(MetadataChange.replace)
        labels = try fields.optionalStringMap("labels")
        if let key = try fields.optional("labelKey", maxLength: 40) {
            guard !key.isEmpty, let value = try fields.optional("labelValue", maxLength: 500) else {
                throw fields.invalid("labelValue", "labelKey needs a labelValue.")
            }
            addedLabel = (key, value)
        }
    }

    /// A Stripe webhook endpoint form: `url`, `enabled_events`, `description`, `metadata`, and on update
    /// `disabled`; Stripe's other documented parameters are accepted and ignored, any other is refused
    /// (`parameter_unknown`). Creation needs `url` and `enabled_events`. Metadata change key by key, as Stripe's
    /// do ("Individual keys can be unset by posting an empty value to them. All keys can be unset by posting an
    /// empty value to metadata": `WebhookEndpointUpdateParams`, stripe-ruby's generated
    /// `lib/stripe/params/webhook_endpoint_update_params.rb`).
    package init(stripeForm body: JSONValue, creating: Bool, targets: WebhookTargetPolicy) throws(FieldError) {
        let fields = RequestFields.stripe(body)
        try fields.rejectUnknown(allowed: creating ? Self.stripeFields : Self.stripeFields.union(["disabled"]))
        if let url = try fields.optional("url", maxLength: 2048) {
            self.url = try WebhookTargetURL.validate(url, param: "url", code: "url_invalid", policy: targets)
        } else if creating {
            _ = try fields.required("url")
        }
        if let events = try fields.optionalList("enabled_events", maxCount: 100, maxLength: 100) {
            guard !events.isEmpty, events.allSatisfy({ !$0.isEmpty }) else {
                throw fields.invalid("enabled_events", "enabled_events must list at least one event type, or *.")
            }
            eventTypes = events
        } else if creating {
            throw FieldError(
                status: 400, code: "parameter_missing", message: "Missing required param: enabled_events.",
                param: "enabled_events")
        }
        description = try fields.optional("description", maxLength: 5000, multiline: true)
        if fields.body["metadata"] == "" {
            metadata = .replace([:])
        } else {
            metadata = try fields.optionalStringMap("metadata").map(MetadataChange.merge)
        }
        if !creating, let disabled = try fields.optionalBool("disabled") { enabled = !disabled }
    }

    private static let stripeFields: Set<String> = [
        "url", "enabled_events", "description", "metadata", "api_version", "connect", "expand",
    ]

    /// A custom header: an HTTP token of at most 64 characters as its name, visible ASCII (and spaces)
    /// as its value, so nothing can be smuggled into the request; and not one the signature covers or
    /// that frames the request.
    private static func isAllowedHeader(_ name: String, value: String?) -> Bool {
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
        guard let value, (1...64).contains(name.utf8.count), value.utf8.count <= 1024,
            name.utf8.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || tokenPunctuation.contains($0)
            }),
            value.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 })
        else { return false }
        return ![
            "content-type", "x-event-id", "x-event-type", "x-hook0-signature", "host", "content-length",
            "transfer-encoding", "connection", "user-agent", "expect", "te", "trailer", "upgrade", "keep-alive",
            "content-encoding", "proxy-authorization", "proxy-connection",
        ].contains(name.lowercased())
    }
}
