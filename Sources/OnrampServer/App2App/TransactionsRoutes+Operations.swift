import HTTPServer
import OnrampServices
import OnrampWire

extension TransactionsRoutes {
    /// The OpenAPI operations of the transactions API (App2App and hosted-onramp purchases).
    enum Operations {
        /// The tag of the transactions API.
        static let tag = "Transactions"

        // MARK: - Parameters

        /// A date parameter: an RFC 3339 time or a date alone (`2026-11-30`); empty counts as absent.
        static let date = APISchema.anyOf([.dateTime, .string(format: "date"), .constant("")])

        /// The paging parameters of both lists, in both spellings (the snake_case one wins).
        static let pagingQuery = [
            APIParameter(
                "page_size",
                APISchema.anyOf([.integer(minimum: 1, maximum: 1000), .constant("")]).described(
                    "Rows per page; 10 when absent or empty.")),
            APIParameter("pageSize", APISchema.string.described("The API reference's spelling of page_size.")),
            APIParameter(
                "page_key", APISchema.string.described("The next_page_key of the previous page; empty for the first.")),
            APIParameter("pageKey", APISchema.string.described("The API reference's spelling of page_key.")),
        ]

        /// The date filters of the project's list, in both spellings (the snake_case one wins).
        static let dateQuery = [
            APIParameter("start_date", date.described("Transactions created at or after this time.")),
            APIParameter("startDate", APISchema.string.described("The API reference's spelling of start_date.")),
            APIParameter(
                "end_date", date.described("Transactions created before this time (a date includes its whole day).")),
            APIParameter("endDate", APISchema.string.described("The API reference's spelling of end_date.")),
        ]

        // MARK: - Answers

        /// A page of transactions, newest first.
        static let transactionPage = APISchema.object(
            [
                "transactions": .array(OnrampTransaction.schema),
                "next_page_key": APISchema.string.described("The page_key of the next page; empty on the last page."),
                "total_count": APISchema.string.described("How many transactions match, as a decimal string."),
            ], required: ["transactions", "next_page_key", "total_count"])

        // MARK: - Operations

        /// `GET /onramp/v1/buy/user/{partnerUserRef}/transactions`.
        static let listUserBuyTransactions = APIOperation.cdp(
            "GET /onramp/v1/buy/user/{partnerUserRef}/transactions",
            "listUserBuyTransactions", "Lists the transactions of one partner user, newest first.", tag: tag,
            auth: .apiKeyJWT, query: pagingQuery, response: transactionPage)

        /// `GET /onramp/v1/buy/transactions`.
        static let listBuyTransactions = APIOperation.cdp(
            "GET /onramp/v1/buy/transactions",
            "listBuyTransactions", "Lists the project's transactions, newest first, optionally between two dates.",
            tag: tag, auth: .apiKeyJWT, query: pagingQuery + dateQuery, response: transactionPage)
    }
}
