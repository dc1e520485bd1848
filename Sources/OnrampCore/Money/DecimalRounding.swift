/// How ``DecimalAmount/rounded(toPlaces:mode:)`` resolves digits beyond the kept places.
public enum DecimalRounding: String, Sendable, Hashable, Codable, CaseIterable {
    /// Round half to even (banker's rounding): `2.345` → `2.34`, `2.355` → `2.36`.
    case bankers
    /// Round toward zero (truncate): `2.349` → `2.34`, `-2.349` → `-2.34`.
    case down
    /// Round away from zero: `2.341` → `2.35`, `-2.341` → `-2.35`.
    case up
}
