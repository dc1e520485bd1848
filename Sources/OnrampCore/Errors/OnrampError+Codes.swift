extension OnrampError.Code {
    // Money and amounts.
    /// A decimal string is malformed, too long or too precise.
    public static let invalidAmount = Self(rawValue: "invalid_amount")
    /// An amount is below the payment method's minimum.
    public static let amountBelowMinimum = Self(rawValue: "amount_below_minimum")
    /// An amount is above the payment method's maximum.
    public static let amountAboveMaximum = Self(rawValue: "amount_above_maximum")
    /// An amount does not cover the fees.
    public static let amountTooSmallForFees = Self(rawValue: "amount_too_small_for_fees")
    /// Exactly one of two amounts must be given.
    public static let amountChoiceInvalid = Self(rawValue: "amount_choice_invalid")
    /// Two amounts in different currencies were combined.
    public static let currencyMismatch = Self(rawValue: "currency_mismatch")

    // Catalogue.
    /// The fiat currency is not in the catalogue.
    public static let unknownFiatCurrency = Self(rawValue: "unknown_fiat_currency")
    /// The asset (ticker or asset id) is not in the catalogue.
    public static let unknownAsset = Self(rawValue: "unknown_asset")
    /// The network is not in the catalogue.
    public static let unknownNetwork = Self(rawValue: "unknown_network")
    /// The asset is not offered on the network.
    public static let assetNotOnNetwork = Self(rawValue: "asset_not_on_network")
    /// The payment method is not in the catalogue or not offered for the currency.
    public static let unsupportedPaymentMethod = Self(rawValue: "unsupported_payment_method")
    /// The price table has no price for the pair.
    public static let priceUnavailable = Self(rawValue: "price_unavailable")
    /// A catalogue document could not be decoded or is inconsistent.
    public static let invalidCatalogue = Self(rawValue: "invalid_catalogue")

    // Addresses.
    /// The address is not valid for the network.
    public static let invalidAddress = Self(rawValue: "invalid_address")

    // KYC and region (the Embedded contract's codes).
    /// The customer has not completed L0 verification.
    public static let missingMinimumIdentityVerification = Self(
        rawValue: "crypto_onramp_missing_minimum_identity_verification")
    /// The customer has not completed L1 verification.
    public static let missingIdentityVerification = Self(
        rawValue: "crypto_onramp_missing_identity_verification")
    /// The customer has not completed L2 (document) verification.
    public static let missingDocumentVerification = Self(
        rawValue: "crypto_onramp_missing_document_verification")
    /// The customer's country, region or currency is not supported.
    public static let unsupportedCountry = Self(rawValue: "crypto_onramp_unsupported_country")
    /// The customer's phone or identity check was rejected: they cannot buy at all.
    public static let unsupportableCustomer = Self(rawValue: "crypto_onramp_unsupportable_customer")
    /// The amount is above the highest tier's limit (an OnrampKit extension of the contract's codes).
    public static let transactionLimitReached = Self(rawValue: "crypto_onramp_transaction_limit_reached")

    // Contact details.
    /// A phone number is not in E.164 form.
    public static let invalidPhoneFormat = Self(rawValue: "invalid_phone_format")

    // State machines.
    /// An event is not allowed in the machine's current state.
    public static let illegalTransition = Self(rawValue: "illegal_transition")
}
