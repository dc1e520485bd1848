import Foundation
import HTTPServer
import OnrampCrypto
import OnrampServices
import OnrampWire

/// The JWT-authenticated transactions API: `GET /onramp/v1/buy/user/{partnerUserRef}/transactions`
/// and `GET /onramp/v1/buy/transactions`, newest first, with an opaque `page_key` cursor. Parameters come
/// in both spellings (`start_date` and the API reference's `startDate`); one it cannot honour is a 400,
/// never ignored (a reconciliation must not get every row when it asked for some).
struct TransactionsRoutes: Sendable {
    let transactions: TransactionService

    func listUserBuyTransactions(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        try Self.refuseUnknownParameters(request, allowed: Self.pageParameters)
        guard let ref = request.pathParameters["partnerUserRef"], !ref.isEmpty, ref.utf8.count <= 50 else {
            throw FieldError(
                code: "invalid_request", message: "partnerUserRef must be 1 to 50 bytes.")
        }
        return try list(request, projectId: projectId, filter: .init(partnerUserRef: ref))
    }

    func listBuyTransactions(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        try Self.refuseUnknownParameters(request, allowed: Self.pageParameters.union(Self.dateParameters))
        var filter = TransactionRepository.Filter()
        if let start = Self.query(request, "start_date", "startDate") {
            filter.createdFrom = try Self.parseDate(start, name: "start_date").milliseconds
        }
        if let end = Self.query(request, "end_date", "endDate") {
            // A date alone includes that whole day; a time is the exclusive end.
            let (milliseconds, dateOnly) = try Self.parseDate(end, name: "end_date")
            filter.createdBefore = dateOnly ? milliseconds + 86_400_000 : milliseconds
        }
        return try list(request, projectId: projectId, filter: filter)
    }

    private func list(_ request: HTTPRequest, projectId: String, filter: TransactionRepository.Filter) throws
        -> HTTPResponse
    {
        let pageSize = try Self.pageSize(Self.query(request, "page_size", "pageSize"))
        let cursor = try Self.query(request, "page_key", "pageKey").map(Self.decodeCursor)
        let (rows, total) = try transactions.page(
            projectId: projectId, filter: filter, after: cursor.map { ($0.createdAt, $0.id) }, limit: pageSize + 1)
        let page = Array(rows.prefix(pageSize))
        for row in page { RequestNotes.current?.noteSubject(row.transactionId) }
        let nextKey =
            rows.count > pageSize
            ? page.last.map { Self.encodeCursor(createdAt: $0.createdAt, id: $0.transactionId) } : nil
        return .json([
            "transactions": .array(page.map(\.wire.json)),
            "next_page_key": .string(nextKey ?? ""),
            "total_count": .string(String(total)),
        ])
    }

    static let pageParameters: Set<String> = ["page_size", "pageSize", "page_key", "pageKey"]
    static let dateParameters: Set<String> = ["start_date", "startDate", "end_date", "endDate"]

    /// 400 for a query parameter outside `allowed`: a filter this API does not have must not be ignored.
    private static func refuseUnknownParameters(_ request: HTTPRequest, allowed: Set<String>) throws(FieldError) {
        guard let unknown = request.query.first(where: { !allowed.contains($0.0) })?.0 else { return }
        throw FieldError(
            code: "invalid_request",
            message:
                "\(unknown) is not a parameter of this API; it takes \(allowed.sorted().joined(separator: ", ")).",
            param: String(unknown.utf8.prefix(64)) ?? "query")
    }

    /// The first non-empty value of the query parameters `names`: an empty one (`?page_key=`, as the
    /// contract writes it and as `next_page_key` comes back on the last page) counts as absent.
    private static func query(_ request: HTTPRequest, _ names: String...) -> String? {
        names.lazy.compactMap { request.queryValue($0) }.first { !$0.isEmpty }
    }

    static func pageSize(_ text: String?) throws(FieldError) -> Int {
        guard let text else { return 10 }
        guard let size = Int(text), (1...1000).contains(size) else {
            throw FieldError(
                code: "invalid_request", message: "page_size must be between 1 and 1000.",
                param: "page_size")
        }
        return size
    }

    static func encodeCursor(createdAt: Int64, id: String) -> String {
        Base64URL.encode(Array("\(createdAt):\(id)".utf8), padded: false)
    }

    static func decodeCursor(_ key: String) throws(FieldError) -> (createdAt: Int64, id: String) {
        guard key.utf8.count <= 256, let bytes = Base64URL.decode(key),
            let text = UTF8Text.string(bytes),
            let colon = text.firstIndex(of: ":"), let createdAt = Int64(text[..<colon])
        else {
            throw FieldError(code: "invalid_request", message: "page_key is not valid.", param: "page_key")
        }
        return (createdAt, String(text[text.index(after: colon)...]))
    }

    /// An RFC 3339 time, or a date alone (midnight UTC, `dateOnly`), checked as a calendar date.
    static func parseDate(_ text: String, name: String) throws(FieldError) -> (milliseconds: Int64, dateOnly: Bool) {
        guard let parsed = Timestamp.parseRFC3339(text) else {
            throw FieldError(
                code: "invalid_request",
                message: "\(name) must be an RFC 3339 time or date between 1970 and 9999 (a real calendar date).",
                param: name)
        }
        return parsed
    }
}
