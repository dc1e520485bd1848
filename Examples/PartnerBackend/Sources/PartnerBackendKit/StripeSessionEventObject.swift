/// The `data.object` of a `crypto.onramp_session.updated` event, as far as crediting needs it.
public struct StripeSessionEventObject: Decodable, Sendable, Equatable {
    /// The fields of `transaction_details` used for crediting.
    public struct TransactionDetails: Decodable, Sendable, Equatable {
        /// The crypto amount (decimal text), once quoted.
        public let destinationAmount: String?
        /// The asset (`usdc`).
        public let destinationCurrency: String?
        /// The on-chain transaction id, once sent.
        public let transactionId: String?

        private enum CodingKeys: String, CodingKey {
            case destinationAmount = "destination_amount", destinationCurrency = "destination_currency"
            case transactionId = "transaction_id"
        }
    }

    /// The session id (`cos_…`).
    public let id: String
    /// The status; `fulfillment_complete` means delivered.
    public let status: String
    /// The amounts.
    public let transactionDetails: TransactionDetails?

    private enum CodingKeys: String, CodingKey {
        case id, status, transactionDetails = "transaction_details"
    }
}
