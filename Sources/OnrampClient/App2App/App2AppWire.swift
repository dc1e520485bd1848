import OnrampWire

/// Request and response bodies of the mobile endpoints.
enum App2AppWire {
    struct Challenge: Decodable {
        let challenge: String
        let expiresAt: String?
    }

    struct Registration: Encodable {
        struct IOS: Encodable {
            let keyId: String
            let attestation: String
            let bundleId: String
        }
        let challenge: String
        let ios: IOS
    }

    struct RegistrationResponse: Decodable {
        let appId: String
        let keyId: String
        let attestedAt: String
    }

    static func purchaseChallenge(projectId: String, purchase: App2AppPurchase) -> [String: String] {
        let fields: [(String, String?)] = [
            ("projectId", projectId), ("purchaseCurrency", purchase.purchaseCurrency),
            ("destinationNetwork", purchase.destinationNetwork), ("destinationAddress", purchase.destinationAddress),
            ("redirectUrl", purchase.redirectUrl), ("paymentAmount", purchase.paymentAmount),
            ("purchaseAmount", purchase.purchaseAmount), ("paymentCurrency", purchase.paymentCurrency),
            ("paymentMethod", purchase.paymentMethod), ("partnerUserRef", purchase.partnerUserRef),
            ("country", purchase.country), ("subdivision", purchase.subdivision),
        ]
        return Dictionary(fields.compactMap { name, value in value.map { (name, $0) } }, uniquingKeysWith: { $1 })
    }

    struct Session: Encodable {
        struct IOS: Encodable {
            let keyId: String
            let assertion: String
        }
        let challenge: String
        let ios: IOS
    }

    struct SessionResponse: Decodable {
        struct Body: Decodable {
            let onrampUrl: String
        }
        let session: Body
    }
}
