/// An ``AttestationRegistrationStore`` in memory (tests, previews).
public actor InMemoryAttestationRegistrationStore: AttestationRegistrationStore {
    private var registrations: [String: AttestationRegistration]

    /// Creates a store holding `registrations`.
    public init(_ registrations: [AttestationRegistration] = []) {
        self.registrations = Dictionary(registrations.map { ($0.projectId, $0) }, uniquingKeysWith: { $1 })
    }

    /// The stored registration.
    public func registration(forProject projectId: String) -> AttestationRegistration? {
        registrations[projectId]
    }

    /// Stores a registration.
    public func save(_ registration: AttestationRegistration) {
        registrations[registration.projectId] = registration
    }

    /// Forgets a registration.
    public func removeRegistration(forProject projectId: String) {
        registrations[projectId] = nil
    }
}
