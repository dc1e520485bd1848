/// KYC data as stored, shown to the user for confirmation (the id number only as its last four digits).
public struct RetrievedKycInfo: Sendable, Equatable {
    /// Given name.
    public let firstName: String?
    /// Family name.
    public let lastName: String?
    /// Last four digits of the id number.
    public let idNumberLast4: String?
    /// The stored address (or the updated one being confirmed).
    public let address: Address?
}
