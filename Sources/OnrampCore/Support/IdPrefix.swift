/// The id prefixes of the contracts' objects.
public enum IdPrefix {
    /// A LinkAuthIntent.
    public static let linkAuthIntent = "lai"
    /// A crypto customer.
    public static let cryptoCustomer = "crc"
    /// A payment token.
    public static let paymentToken = "cpt"
    /// An onramp session.
    public static let onrampSession = "cos"
    /// An event.
    public static let event = "evt"
    /// A webhook endpoint.
    public static let webhookEndpoint = "we"
    /// A webhook signing secret.
    public static let webhookSecret = "whsec"
    /// A Stripe API key's id (the key itself is `sk_…`/`pk_…`).
    public static let apiKey = "key"
    /// A Link consumer.
    public static let linkConsumer = "lcu"
    /// A Link consumer session's client secret.
    public static let consumerSessionSecret = "cscs"
    /// A Link auth token (seamless sign-in).
    public static let linkAuthToken = "lat"
    /// A Link auth token's client secret.
    public static let linkAuthTokenClientSecret = "latcs"
    /// A crypto consumer wallet.
    public static let wallet = "cwa"
    /// A payment method.
    public static let paymentMethod = "pm"
    /// A Link consumer's saved payment details.
    public static let linkPaymentDetails = "csmrpd"
    /// A single-use card token (Apple Pay).
    public static let cardToken = "tok"
    /// The PaymentIntent behind an onramp session's checkout.
    public static let paymentIntent = "pi"
    /// An uploaded file (identity images; only their size and purpose are kept).
    public static let file = "file"
    /// An identity verification session.
    public static let identityVerification = "vs"
    /// An OAuth token family: the access and refresh tokens issued together and their rotations.
    public static let oauthTokenFamily = "otf"
    /// One quote of an onramp quotes list.
    public static let onrampQuote = "cq"
    /// An onramp quotes list.
    public static let onrampQuotes = "cqs"
    /// An Elements session (the payment sheet's configuration).
    public static let elementsSession = "elements_session"
    /// An Elements session's configuration id.
    public static let elementsConfig = "config"
    /// A wallet-ownership challenge (the message a wallet signs).
    public static let walletOwnershipChallenge = "woc"
}
