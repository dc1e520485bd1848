/// A key registered with the server for one project (seed step 1). Persist it; it is not a secret.
public struct AttestationRegistration: Sendable, Codable, Equatable {
    /// The project the key is registered with.
    public let projectId: String
    /// The App Attest key id.
    public let keyId: String
    /// The matched `teamID.bundleID`.
    public let appId: String
    /// When the server verified the attestation (as it reported it).
    public let attestedAt: String

    /// Creates a registration record.
    public init(projectId: String, keyId: String, appId: String, attestedAt: String) {
        self.projectId = projectId
        self.keyId = keyId
        self.appId = appId
        self.attestedAt = attestedAt
    }
}
