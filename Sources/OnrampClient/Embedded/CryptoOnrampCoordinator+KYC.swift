import Foundation
import OnrampWire

extension CryptoOnrampCoordinator {
    /// Submits KYC data (tiers L0 and L1). Verification is asynchronous: your backend polls the customer.
    public func attachKYCInfo(info: KycInfo) async throws {
        try ensureActive()
        _ = try await api.post("/v1/crypto/internal/kyc_data_collection", [try credentials()] + info.formFields)
    }

    /// Shows the stored KYC data (with `updatedAddress` in place of the stored address when given) for the user
    /// to confirm; on confirmation the server records it (and the new address).
    public func verifyKYCInfo(updatedAddress: Address? = nil, from viewController: PresentingViewController)
        async throws -> VerifyKycResult
    {
        try ensureActive()
        let credential = try credentials()
        let stored = try await api.post(
            "/v1/crypto/internal/kyc_data_retrieve", [credential], as: CryptoKYCData.self)
        let address =
            updatedAddress
            ?? stored.address.line1.map {
                Address(
                    line1: $0, line2: stored.address.line2, city: stored.address.city ?? "",
                    state: stored.address.state ?? "", postalCode: stored.address.zip ?? "",
                    country: stored.address.country ?? "")
            }
        let info = RetrievedKycInfo(
            firstName: stored.firstName, lastName: stored.lastName, idNumberLast4: stored.idNumberLast4,
            address: address)
        let result = await presenters.kycReview.review(info, from: viewController)
        if result == .confirmed {
            _ = try await api.post(
                "/v1/crypto/internal/refresh_consumer_person", [credential] + (updatedAddress?.formFields ?? []))
        }
        return result
    }

    /// Presents document and selfie verification. Call it again after a rejected verification.
    public func verifyIdentity(from viewController: PresentingViewController) async throws -> VerificationResult {
        try ensureActive()
        let started = try await api.post(
            "/v1/crypto/internal/start_identity_verification", [try credentials(), ("is_mobile", "true")])
        guard let text = started.string("url"), let url = URL(string: text) else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "No verification URL.")
        }
        return try await presenters.identity.presentIdentityVerification(
            url: url, ephemeralKey: started.string("ephemeral_key") ?? "", from: viewController)
    }
}
