import Foundation

/// The registered and CDP claims OnrampKit reads and writes. Times are whole seconds since 1970.
public struct JWTClaims: Sendable, Equatable {
    /// The latest `exp`, `nbf` or `iat` accepted (9999-12-31T23:59:59Z); later or negative ones are malformed.
    public static let latestNumericDate: Double = 253_402_300_799

    /// `sub`.
    public var subject: String?
    /// `iss`.
    public var issuer: String?
    /// `aud`: a string is read as a one-element array; `null` or absent is `nil`.
    public var audience: [String]?
    /// `nbf`.
    public var notBefore: Date?
    /// `exp`.
    public var expiresAt: Date?
    /// `iat`.
    public var issuedAt: Date?
    /// `uris`: "METHOD host/path" entries (CDP API keys).
    public var uris: [String]?

    /// Creates claims.
    public init(
        subject: String? = nil, issuer: String? = nil, audience: [String]? = nil, notBefore: Date? = nil,
        expiresAt: Date? = nil, issuedAt: Date? = nil, uris: [String]? = nil
    ) {
        self.subject = subject
        self.issuer = issuer
        self.audience = audience
        self.notBefore = notBefore
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.uris = uris
    }

    /// JSON in the order the cdp-sdk generator writes: sub, iss, aud, nbf, exp, iat, uris; absent
    /// claims are omitted.
    var json: String {
        var members: [(String, String)] = []
        if let subject { members.append(("sub", JSONText.string(subject))) }
        if let issuer { members.append(("iss", JSONText.string(issuer))) }
        if let audience { members.append(("aud", JSONText.strings(audience))) }
        if let notBefore { members.append(("nbf", Self.numericDate(notBefore))) }
        if let expiresAt { members.append(("exp", Self.numericDate(expiresAt))) }
        if let issuedAt { members.append(("iat", Self.numericDate(issuedAt))) }
        if let uris { members.append(("uris", JSONText.strings(uris))) }
        return JSONText.object(members)
    }

    /// Whole seconds; a time beyond `Int64` (only a test would sign one) is written as a JSON double.
    private static func numericDate(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return Int64(exactly: seconds).map(String.init) ?? "\(seconds)"
    }

    /// Reads the known claims from a decoded JSON object; wrong types are malformed.
    init(json object: [String: Any]) throws {
        func malformed(_ name: String) -> CryptoError {
            CryptoError(code: .malformedToken, message: "claim \(name) has the wrong type or is out of range")
        }
        func string(_ name: String) throws -> String? {
            guard let value = object[name], !(value is NSNull) else { return nil }
            guard let text = value as? String else { throw malformed(name) }
            return text
        }
        func strings(_ name: String, allowSingle: Bool) throws -> [String]? {
            guard let value = object[name], !(value is NSNull) else { return nil }
            if allowSingle, let text = value as? String { return [text] }
            guard let list = value as? [Any] else { throw malformed(name) }
            return try list.map {
                guard let text = $0 as? String else { throw malformed(name) }
                return text
            }
        }
        func date(_ name: String) throws -> Date? {
            guard let value = object[name], !(value is NSNull) else { return nil }
            // A NumericDate between 1970 and the end of year 9999, so later arithmetic cannot overflow.
            guard let number = value as? NSNumber, !(value is Bool),
                (0...JWTClaims.latestNumericDate).contains(number.doubleValue)
            else { throw malformed(name) }
            return Date(timeIntervalSince1970: number.doubleValue)
        }
        subject = try string("sub")
        issuer = try string("iss")
        audience = try strings("aud", allowSingle: true)
        notBefore = try date("nbf")
        expiresAt = try date("exp")
        issuedAt = try date("iat")
        uris = try strings("uris", allowSingle: false)
    }
}
