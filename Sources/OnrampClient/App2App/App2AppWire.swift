import OnrampWire

/// The purchase challenge's body (the other bodies of the mobile endpoints are `OnrampWire` types).
enum App2AppWire {
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
}
