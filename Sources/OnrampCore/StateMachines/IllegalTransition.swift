extension OnrampError {
    /// The error for an event that a machine's current state does not accept.
    static func illegalTransition(machine: String, state: String, event: String) -> OnrampError {
        OnrampError(
            code: .illegalTransition, userMessage: "This action is not possible right now.",
            developerMessage: "\(machine): event \(event) is not allowed in state \(state).")
    }
}
