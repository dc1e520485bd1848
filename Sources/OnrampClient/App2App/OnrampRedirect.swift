import Foundation

/// The return to the app (seed step 6), parsed. Use it to pick the screen to show, never to credit: it is
/// unsigned, and its `transactionId` is not the transactions API's id.
public enum OnrampRedirect: Sendable, Equatable {
    /// The purchase (and send) completed.
    case success(transactionId: String, sessionToken: String?, partnerUserRef: String?, handshakeNonce: String?)
    /// Not validated, not eligible, or failed; no reason is given.
    case error(sessionToken: String?, partnerUserRef: String?)
    /// The user left before attempting a transaction.
    case cancelled(sessionToken: String?, partnerUserRef: String?)

    /// Parses a redirect URL; throws ``App2AppError/Code/invalidRedirect`` when `status` is missing or unknown,
    /// or a success has no `transactionId`.
    public init(url: URL) throws(App2AppError) {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        let token = value("sessionToken")
        let ref = value("partnerUserRef")
        switch value("status") {
        case "success":
            guard let transactionId = value("transactionId") else {
                throw App2AppError(.invalidRedirect, developer: "A success redirect without transactionId: \(url).")
            }
            self = .success(
                transactionId: transactionId, sessionToken: token, partnerUserRef: ref,
                handshakeNonce: value("handshakeNonce"))
        case "error": self = .error(sessionToken: token, partnerUserRef: ref)
        case "cancelled": self = .cancelled(sessionToken: token, partnerUserRef: ref)
        default:
            throw App2AppError(.invalidRedirect, developer: "Not an onramp redirect (status missing or unknown).")
        }
    }

    /// The `partnerUserRef` echoed back, if any.
    public var partnerUserRef: String? {
        switch self {
        case .success(_, _, let ref, _), .error(_, let ref), .cancelled(_, let ref): ref
        }
    }

    /// The session token echoed back, if any.
    public var sessionToken: String? {
        switch self {
        case .success(_, let token, _, _), .error(let token, _), .cancelled(let token, _): token
        }
    }
}
