/// What Stripe answers a deletion with: `{id, object, deleted: true}` (stripe-node's `Deleted…` types).
public struct StripeDeletedObject: WireObject, Codable, Equatable {
    /// The deleted object's id.
    public var id: String
    /// The deleted object's type (`webhook_endpoint`).
    public var object: String
    /// Always `true`.
    public var deleted: Bool

    /// The answer to deleting the `object` called `id`.
    public init(id: String, object: String) {
        self.id = id
        self.object = object
        deleted = true
    }

    /// What every deletion answer holds.
    public static var schema: APISchema { schema(object: .string) }

    /// The deletion answer of an object of the type `object` describes.
    public static func schema(object: APISchema) -> APISchema {
        .object(
            ["id": .string, "object": object, "deleted": APISchema(json: ["const": true])],
            required: ["id", "object", "deleted"])
    }
}
