/// An object on the wire, spelled once: the server renders it with ``json``, the client SDKs and the
/// tests decode the same type (`Decodable`), and the OpenAPI description takes its ``schema``.
public protocol WireObject: Sendable {
    /// The object as the server writes it.
    var json: JSONValue { get }
    /// What ``json`` always holds, as a JSON Schema.
    static var schema: APISchema { get }
}
