#if canImport(DeviceCheck)
    import DeviceCheck
    import Foundation

    /// An ``AppAttestProvider`` over Apple's `DCAppAttestService` (Secure Enclave keys).
    @available(iOS 14.0, macOS 11.0, *)
    public struct DeviceCheckAppAttestProvider: AppAttestProvider {
        /// Creates a provider over `DCAppAttestService.shared`.
        public init() {}

        /// `DCAppAttestService.shared.isSupported`.
        public var isSupported: Bool { DCAppAttestService.shared.isSupported }

        /// `DCAppAttestService.generateKey`.
        public func generateKey() async throws -> String {
            try await DCAppAttestService.shared.generateKey()
        }

        /// `DCAppAttestService.attestKey`.
        public func attestKey(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
            do {
                return Array(try await DCAppAttestService.shared.attestKey(keyId, clientDataHash: Data(clientDataHash)))
            } catch let error as DCError where error.code == .invalidKey {
                throw App2AppError(.invalidKey, developer: "DCAppAttestService: invalid key \(keyId).")
            }
        }

        /// `DCAppAttestService.generateAssertion`.
        public func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
            do {
                return Array(
                    try await DCAppAttestService.shared.generateAssertion(keyId, clientDataHash: Data(clientDataHash)))
            } catch let error as DCError where error.code == .invalidKey {
                throw App2AppError(.invalidKey, developer: "DCAppAttestService: invalid key \(keyId).")
            }
        }
    }
#endif
