/// cdp-sdk's `GetOnrampUserLimits200Response`: a guest's limits with what is left of each, and (cdp-sdk
/// 1.51.0) the upgrade the guest may ask for. The server writes it and `HeadlessOnrampClient` decodes it.
public struct OnrampUserLimits: WireObject, Codable, Equatable {
    /// One limit (`OnrampUserLimit`).
    public struct Limit: WireObject, Codable, Equatable {
        /// `weekly_spending` or `lifetime_transactions`.
        public var limitType: String
        /// The currency of a spending limit.
        public var currency: String?
        /// The limit, as decimal text.
        public var limit: String
        /// What is left, as decimal text.
        public var remaining: String

        /// Creates a limit.
        public init(limitType: String, currency: String? = nil, limit: String, remaining: String) {
            self.limitType = limitType
            self.currency = currency
            self.limit = limit
            self.remaining = remaining
        }

        public static let schema = APISchema.object(
            [
                "limitType": .enumeration(["weekly_spending", "lifetime_transactions"]),
                "currency": .string, "limit": .decimalString, "remaining": .decimalString,
            ], required: ["limitType", "limit", "remaining"])
    }

    /// The upgrade a guest may ask for (`limitUpgradeOptions`): where it stands, the fields it takes and how
    /// far it lifts each limit.
    public struct UpgradeOption: WireObject, Codable, Equatable {
        /// How far the upgrade lifts one limit.
        public struct Upgrade: WireObject, Codable, Equatable {
            /// The limit it lifts.
            public var limitType: String
            /// Its value once upgraded.
            public var maxUpgrade: String

            /// Creates an upgrade.
            public init(limitType: String, maxUpgrade: String) {
                self.limitType = limitType
                self.maxUpgrade = maxUpgrade
            }

            public static let schema = APISchema.object(
                ["limitType": .string, "maxUpgrade": .string], required: ["limitType", "maxUpgrade"])
        }

        /// Where the guest's upgrade stands.
        public var status: String
        /// The fields the upgrade still needs (`ssnLast4`, `dateOfBirth`).
        public var fields: [String]
        /// How far it lifts each limit.
        public var limitUpgrades: [Upgrade]

        /// Creates an upgrade option.
        public init(status: String, fields: [String], limitUpgrades: [Upgrade]) {
            self.status = status
            self.fields = fields
            self.limitUpgrades = limitUpgrades
        }

        public static let schema = APISchema.object(
            [
                "status": .string, "fields": .array(.enumeration(["ssnLast4", "dateOfBirth"])),
                "limitUpgrades": .array(Upgrade.schema),
            ], required: ["status", "fields", "limitUpgrades"])
    }

    /// The guest's limits.
    public var limits: [Limit]
    /// The upgrade the guest may ask for (absent from answers before cdp-sdk 1.51.0).
    public var limitUpgradeOptions: [UpgradeOption]?

    /// Creates the answer.
    public init(limits: [Limit], limitUpgradeOptions: [UpgradeOption]? = nil) {
        self.limits = limits
        self.limitUpgradeOptions = limitUpgradeOptions
    }

    public static let schema = APISchema.object(
        ["limits": .array(Limit.schema), "limitUpgradeOptions": .array(UpgradeOption.schema)], required: ["limits"])
}
