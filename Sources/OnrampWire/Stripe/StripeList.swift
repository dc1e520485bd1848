/// A page of a Stripe list: `{object: "list", url, has_more, data}` (stripe-node's `ApiList`). The server
/// writes its lists with it; a client decodes one with the item type it expects.
public struct StripeList<Item: Sendable>: Sendable {
    /// The list's path (`/v1/webhook_endpoints`).
    public var url: String
    /// Whether items follow this page (ask again with `starting_after` set to the last one's id).
    public var hasMore: Bool
    /// The page's items.
    public var data: [Item]

    /// A page of `data`.
    public init(url: String, hasMore: Bool, data: [Item]) {
        self.url = url
        self.hasMore = hasMore
        self.data = data
    }

    /// The page of the first `limit` of `fetched`: an item beyond them (read to tell) only sets ``hasMore``.
    public init(url: String, limit: Int, fetched: [Item]) {
        self.init(url: url, hasMore: fetched.count > limit, data: Array(fetched.prefix(limit)))
    }

    private enum CodingKeys: String, CodingKey {
        case url, hasMore = "has_more", data
    }
}

extension StripeList: Equatable where Item: Equatable {}

extension StripeList: Decodable where Item: Decodable {
    /// Decodes the page and its items.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        hasMore = try container.decode(Bool.self, forKey: .hasMore)
        data = try container.decode([Item].self, forKey: .data)
    }
}

extension StripeList {
    /// The page as written, each item rendered by `render`.
    public func json(rendering render: (Item) -> JSONValue) -> JSONValue {
        [
            "object": "list", "url": .string(url), "has_more": .bool(hasMore),
            "data": .array(data.map(render)),
        ]
    }

    /// A page of `item`s at `url`.
    public static func schema(url: APISchema, item: APISchema) -> APISchema {
        .object(
            ["object": .constant("list"), "url": url, "has_more": .boolean, "data": .array(item)],
            required: ["object", "url", "has_more", "data"])
    }
}

extension StripeList: WireObject where Item: WireObject {
    /// The page with its items as they write themselves.
    public var json: JSONValue { json(rendering: { $0.json }) }

    /// A page of ``Item``s.
    public static var schema: APISchema { schema(url: .string, item: Item.schema) }
}

extension StripeList where Item == JSONValue {
    /// The page with its items as given.
    public var json: JSONValue { json(rendering: { $0 }) }
}
