/// An object on the wire, spelled once: the server renders it with ``json``, the client SDKs and the
/// tests decode the same type (`Decodable`), and the OpenAPI description takes its ``schema``. An `Encodable`
/// object's ``json`` is its encoding (``JSONValueEncoder``), so its `CodingKeys` name its members once for
/// both directions.
public protocol WireObject: Sendable {
    /// The object as the server writes it.
    var json: JSONValue { get }
    /// What ``json`` always holds, as a JSON Schema.
    static var schema: APISchema { get }
    /// What an absent optional member becomes in ``json``: left out (the default) or `null`.
    static var nilEncoding: JSONValueEncoder.NilEncoding { get }
}

extension WireObject {
    /// Absent optional members are left out.
    public static var nilEncoding: JSONValueEncoder.NilEncoding { .omit }
}

extension WireObject where Self: Encodable {
    /// The object's encoding. A wire object holds strings, integers, booleans and other wire objects (money is
    /// decimal text), so its encoding cannot fail; a non-finite number in one is a programming error.
    public var json: JSONValue {
        do {
            return try JSONValueEncoder(nils: Self.nilEncoding).encode(self)
        } catch {
            preconditionFailure("\(Self.self) does not encode: \(error)")
        }
    }
}
