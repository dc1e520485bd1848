import Foundation

/// An ``AttestationRegistrationStore`` that writes one JSON file per project into a directory (the
/// default: `Application Support/OnrampClient/registrations` on Apple platforms, `~/.onramp-client` elsewhere).
public actor FileAttestationRegistrationStore: AttestationRegistrationStore {
    /// The directory holding the files.
    public let directory: URL

    /// Creates a store in `directory` (created when first written).
    public init(directory: URL = FileAttestationRegistrationStore.defaultDirectory) {
        self.directory = directory
    }

    /// The platform's default directory.
    public static var defaultDirectory: URL {
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return base.appendingPathComponent("OnrampClient/registrations", isDirectory: true)
        #else
            return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".onramp-client/registrations", isDirectory: true)
        #endif
    }

    /// Reads the project's file.
    public func registration(forProject projectId: String) throws -> AttestationRegistration? {
        let url = file(projectId)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(AttestationRegistration.self, from: Data(contentsOf: url))
    }

    /// Writes the project's file atomically.
    public func save(_ registration: AttestationRegistration) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONEncoder().encode(registration).write(to: file(registration.projectId), options: .atomic)
    }

    /// Deletes the project's file.
    public func removeRegistration(forProject projectId: String) throws {
        let url = file(projectId)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    private func file(_ projectId: String) -> URL {
        let safe = projectId.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" ? String($0) : "_"
        }
        return directory.appendingPathComponent(safe.joined() + ".json")
    }
}
