/// The App Attest environment a key belongs to, read from the aaguid.
public enum AppAttestEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    /// aaguid `appattestdevelop`.
    case development
    /// aaguid `appattest` followed by seven zero bytes.
    case production

    /// The 16-byte aaguid of this environment.
    public var aaguid: [UInt8] {
        switch self {
        case .development: Array("appattestdevelop".utf8)
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        }
    }

    /// The environment with this aaguid, or `nil`.
    public init?(aaguid: [UInt8]) {
        guard let match = Self.allCases.first(where: { $0.aaguid == aaguid }) else { return nil }
        self = match
    }
}
