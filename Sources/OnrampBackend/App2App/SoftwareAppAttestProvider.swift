import AppAttest
import Foundation
import OnrampClient
import Synchronization

/// An ``AppAttestProvider`` backed by the `SoftwareAttester`: objects in Apple's exact format, signed by a
/// local test CA that only a sandbox server trusts. Keys live in memory; a new process has none, so a
/// persisted registration fails as an invalid key and the client registers a new one.
public final class SoftwareAppAttestProvider: AppAttestProvider {
    private let attester: SoftwareAttester
    private let keys = Mutex<[String: SoftwareAttestKey]>([:])

    /// Creates a provider that attests as `attester` (its authority, App ID and environment).
    public init(attester: SoftwareAttester) {
        self.attester = attester
    }

    /// Always `true`.
    public var isSupported: Bool { true }

    /// Generates a P-256 key.
    public func generateKey() async throws -> String {
        let key = try attester.generateKey()
        keys.withLock { $0[key.keyId] = key }
        return key.keyId
    }

    /// Attests a key made by ``generateKey()``.
    public func attestKey(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        guard let key = keys.withLock({ $0[keyId] }) else { throw Self.unknownKey(keyId) }
        return try attester.attestKey(key, clientDataHash: clientDataHash, at: Date())
    }

    /// Signs an assertion, advancing the key's counter.
    public func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        try keys.withLock { keys in
            guard var key = keys[keyId] else { throw Self.unknownKey(keyId) }
            let assertion = try attester.generateAssertion(&key, clientDataHash: clientDataHash)
            keys[keyId] = key
            return assertion
        }
    }

    private static func unknownKey(_ keyId: String) -> App2AppError {
        App2AppError(.invalidKey, developer: "The software attester has no key \(keyId).")
    }
}
