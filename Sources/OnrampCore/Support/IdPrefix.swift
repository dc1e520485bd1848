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
}
