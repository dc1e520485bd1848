import Foundation

/// A request parameter as stripe-ios builds them (`[String: Any]` of strings, booleans, nested
/// dictionaries and arrays).
indirect enum SDKParameter: Sendable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
{
    case string(String)
    case bool(Bool)
    case dictionary([String: SDKParameter])
    case array([SDKParameter])

    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(dictionaryLiteral elements: (String, SDKParameter)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    init(arrayLiteral elements: SDKParameter...) { self = .array(elements) }
}

/// The form and query encoding of StripeCore's `URLEncoder.queryString(from:)`
/// (`StripeCore/StripeCore/Source/Helpers/URLEncoder.swift`, commit 093aaa89): keys sorted at every level,
/// dictionaries as `key[nested]` with the brackets written raw and each name escaped, arrays as
/// `key[0]`, `key[1]`, booleans as `true`/`false`, and RFC 3986 escaping of everything `urlQueryAllowed`
/// allows except `:#[]@!$&'()*+,;=` (so a space is `%20`, `+` is `%2B`, `?` and `/` stay).
enum SDKFormEncoder {
    static func encode(_ parameters: [String: SDKParameter]) -> String {
        parameters.keys.sorted().flatMap { components(key: escape($0), value: parameters[$0]!) }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    private static func components(key: String, value: SDKParameter) -> [(String, String)] {
        switch value {
        case .string(let text): [(key, escape(text))]
        case .bool(let flag): [(key, flag ? "true" : "false")]
        case .dictionary(let members):
            members.keys.sorted().flatMap { components(key: "\(key)[\(escape($0))]", value: members[$0]!) }
        case .array(let elements):
            elements.enumerated().flatMap { components(key: "\(key)[\($0.offset)]", value: $0.element) }
        }
    }

    private static let allowed = CharacterSet.urlQueryAllowed.subtracting(
        CharacterSet(charactersIn: ":#[]@!$&'()*+,;="))

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
