/// How the sandbox decides a test-mode customer's phone and KYC checks, with Stripe's sandbox values:
/// the last name `Verified` passes them and any other last name fails them. Live customers wait for a
/// real provider.
public enum SandboxVerification {
    /// The last name that passes the sandbox's checks.
    public static let passingLastName = "Verified"

    /// The outcome of the checks for a customer called `lastName` (exactly, case included).
    public static func outcome(lastName: String) -> VerificationStatus {
        lastName == passingLastName ? .verified : .rejected
    }
}
