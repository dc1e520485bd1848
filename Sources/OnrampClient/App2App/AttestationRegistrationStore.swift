/// Keeps the key registration per project, so a purchase does not re-register.
public protocol AttestationRegistrationStore: Sendable {
    /// The registration for `projectId`, if any.
    func registration(forProject projectId: String) async throws -> AttestationRegistration?
    /// Stores (replaces) a registration.
    func save(_ registration: AttestationRegistration) async throws
    /// Forgets the registration of `projectId` (after the key proved invalid).
    func removeRegistration(forProject projectId: String) async throws
}
