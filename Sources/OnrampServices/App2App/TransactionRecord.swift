import OnrampStore
import OnrampWire

/// One onramp transaction (App2App or hosted) as stored, with its two wire forms: the transactions API (snake_case)
/// and the webhook payload (flat camelCase with `eventType`).
package struct TransactionRecord: Sendable {
    package var transactionId: String
    package var projectId: String
    package var sessionToken: String
    package var partnerUserRef: String
    /// Whether the purchase came through App2App (`isAppToApp` in webhooks) rather than the hosted onramp.
    package var isAppToApp: Bool
    package var status: String
    package var purchaseCurrency: String
    package var purchaseNetwork: String
    package var purchaseAmount: String
    package var paymentCurrency: String
    package var paymentTotal: String
    package var paymentSubtotal: String
    package var paymentTotalUSD: String
    package var coinbaseFee: String
    package var networkFee: String
    package var exchangeRate: String
    package var walletAddress: String
    package var contractAddress: String
    package var country: String
    package var paymentMethod: String
    package var txHash: String
    package var failureReason: String?
    package var endPartnerName: String
    package var userId: String
    package var createdAt: Int64
    package var updatedAt: Int64
    package var completedAt: Int64?
    package var nextStepAt: Int64?
    /// The end partner an aggregator's session scoped the transaction to (`X-Onramp-Partner-Id`).
    package var partnerId: String?

    package init(row: Row) throws {
        transactionId = try row.string("transaction_id")
        projectId = try row.string("project_id")
        sessionToken = try row.string("session_token")
        partnerUserRef = try row.string("partner_user_ref")
        isAppToApp = try row.int("is_app_to_app") != 0
        status = try row.string("status")
        purchaseCurrency = try row.string("purchase_currency")
        purchaseNetwork = try row.string("purchase_network")
        purchaseAmount = try row.string("purchase_amount")
        paymentCurrency = try row.string("payment_currency")
        paymentTotal = try row.string("payment_total")
        paymentSubtotal = try row.string("payment_subtotal")
        paymentTotalUSD = try row.string("payment_total_usd")
        coinbaseFee = try row.string("coinbase_fee")
        networkFee = try row.string("network_fee")
        exchangeRate = try row.string("exchange_rate")
        walletAddress = try row.string("wallet_address")
        contractAddress = try row.string("contract_address")
        country = try row.string("country")
        paymentMethod = try row.string("payment_method")
        txHash = try row.string("tx_hash")
        failureReason = row.optionalString("failure_reason")
        endPartnerName = try row.string("end_partner_name")
        userId = try row.string("user_id")
        createdAt = try row.int("created_at")
        updatedAt = try row.int("updated_at")
        completedAt = row.optionalInt("completed_at")
        nextStepAt = row.optionalInt("next_step_at")
        partnerId = row.optionalString("partner_id")
    }

    package init(
        transactionId: String, projectId: String, sessionToken: String, partnerUserRef: String, isAppToApp: Bool,
        quote: StoredQuote, purchase: PurchaseRequest, paymentTotalUSD: String, endPartnerName: String, userId: String,
        now: Int64
    ) {
        self.transactionId = transactionId
        self.projectId = projectId
        self.sessionToken = sessionToken
        self.partnerUserRef = partnerUserRef
        self.isAppToApp = isAppToApp
        status = "ONRAMP_TRANSACTION_STATUS_CREATED"
        purchaseCurrency = quote.purchaseCurrency
        purchaseNetwork = quote.network
        purchaseAmount = quote.purchaseAmount
        paymentCurrency = quote.paymentCurrency
        paymentTotal = quote.paymentTotal
        paymentSubtotal = quote.paymentSubtotal
        self.paymentTotalUSD = paymentTotalUSD
        coinbaseFee = quote.coinbaseFee
        networkFee = quote.networkFee
        exchangeRate = quote.exchangeRate
        walletAddress = purchase.destinationAddress
        contractAddress = quote.contractAddress
        country = purchase.country ?? "US"
        paymentMethod = Self.transactionsAPIPaymentMethod(quote.paymentMethod)
        txHash = ""
        failureReason = nil
        self.endPartnerName = endPartnerName
        self.userId = userId
        createdAt = now
        updatedAt = now
        completedAt = nil
        nextStepAt = now
    }

    /// The request's payment method in the transactions API's enum.
    package static func transactionsAPIPaymentMethod(_ method: String) -> String {
        switch method {
        case "ACH": return "ACH_BANK_ACCOUNT"
        case "CRYPTO_WALLET": return "CRYPTO_ACCOUNT"
        default: return method
        }
    }

    package func insert(into connection: any SQLConnection) throws {
        try connection.execute(
            """
            INSERT INTO onramp_transactions (transaction_id, project_id, session_token, partner_user_ref, status,
                purchase_currency, purchase_network, purchase_amount, payment_currency, payment_total, payment_subtotal,
                payment_total_usd, coinbase_fee, network_fee, exchange_rate, wallet_address, contract_address, country,
                payment_method, tx_hash, failure_reason, end_partner_name, user_id, created_at, updated_at, completed_at,
                next_step_at, is_app_to_app, partner_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(transactionId), .text(projectId), .text(sessionToken), .text(partnerUserRef), .text(status),
                .text(purchaseCurrency), .text(purchaseNetwork), .text(purchaseAmount), .text(paymentCurrency),
                .text(paymentTotal), .text(paymentSubtotal), .text(paymentTotalUSD), .text(coinbaseFee),
                .text(networkFee), .text(exchangeRate), .text(walletAddress), .text(contractAddress), .text(country),
                .text(paymentMethod), .text(txHash), failureReason.map(SQLValue.text) ?? .null, .text(endPartnerName),
                .text(userId), .integer(createdAt), .integer(updatedAt), completedAt.map(SQLValue.integer) ?? .null,
                nextStepAt.map(SQLValue.integer) ?? .null, .integer(isAppToApp ? 1 : 0),
                partnerId.map(SQLValue.text) ?? .null,
            ])
    }

    /// The transactions API form.
    package var wire: OnrampTransaction {
        OnrampTransaction(
            transactionId: transactionId, status: status, userId: userId, purchaseCurrency: purchaseCurrency,
            purchaseNetwork: purchaseNetwork, purchaseAmount: .init(value: purchaseAmount, currency: purchaseCurrency),
            paymentTotal: .init(value: paymentTotal, currency: paymentCurrency),
            paymentSubtotal: .init(value: paymentSubtotal, currency: paymentCurrency),
            paymentTotalUsd: .init(value: paymentTotalUSD, currency: "USD"),
            coinbaseFee: .init(value: coinbaseFee, currency: paymentCurrency),
            networkFee: .init(value: networkFee, currency: paymentCurrency),
            exchangeRate: .init(value: exchangeRate, currency: paymentCurrency), txHash: txHash,
            walletAddress: walletAddress, contractAddress: contractAddress, country: country,
            partnerUserRef: partnerUserRef, paymentMethod: paymentMethod,
            createdAt: Timestamp.rfc3339(milliseconds: createdAt),
            completedAt: completedAt.map { Timestamp.rfc3339(milliseconds: $0) }, endPartnerName: endPartnerName,
            failureReason: failureReason)
    }

    /// The webhook payload for `eventType` (cdp-sdk 1.51.0 `OnrampTransactionPayload`). `errorCode` is
    /// `ERROR_CODE_UNSPECIFIED`, the one value Coinbase documents (its `onrampTransactionFailed` example); the
    /// cause of a failure is in `failureReason`.
    package func webhookJSON(eventType: String) -> JSONValue {
        OnrampTransactionPayload(eventType: eventType, transaction: wire, isAppToApp: isAppToApp, partnerId: partnerId)
            .json
    }
}
