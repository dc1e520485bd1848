import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// A guest's limit upgrade (cdp-sdk 1.51.0 `request_onramp_limit_upgrade`), per person (phone number) and mode,
/// in real time like the limits it raises. API mode decides the request's identity fields at once; embedded
/// mode answers a single-use, expiring link to `LimitUpgradePage`, where the user enters them. The sandbox
/// decides by `ssnLast4`: `0000` activates the upgrade, `9999` asks for the fields again (`resubmit`), anything
/// else stays `pending`, as a real review would. An active upgrade stays active.
package struct LimitUpgradeService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let schedule: SettlementSchedule
    /// Where the upgrade page is served (`http://127.0.0.1:8080`).
    package let publicBaseURL: String

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        schedule = SettlementSchedule(context: context)
        publicBaseURL = context.publicBaseURL
    }

    /// How long an embedded-mode upgrade link may be used.
    package static let linkLifetimeMilliseconds: Int64 = 15 * 60_000

    /// `ssnLast4` values the sandbox decides at once (others stay `pending`).
    package static let sandboxOutcomes: [String: LimitUpgradeRepository.Status] = ["0000": .active, "9999": .resubmit]

    /// An embedded-mode answer: the page's URL (its token shown this once) and when it stops working.
    package struct HostedLink: Sendable, Equatable {
        package let url: String
        package let expiresAt: Int64
    }

    /// Takes the request of `projectId`: decides an API-mode one, or answers an embedded-mode one's link.
    package func request(_ request: LimitUpgradeRequest, projectId: String) throws -> HostedLink? {
        let now = schedule.realNowMilliseconds
        switch request.mode {
        case .api(let ssnLast4):
            try database.transaction { connection in
                let livemode = try TestClockRepository(connection: connection).mode(of: projectId) ?? false
                try Self.decide(
                    ssnLast4: ssnLast4, phone: request.phoneNumber, livemode: livemode,
                    upgrades: LimitUpgradeRepository(connection: connection), now: now)
            }
            return nil
        case .embedded:
            let token = Base64URL.encode(ids.randomBytes(32), padded: false)
            let expiresAt = now + Self.linkLifetimeMilliseconds
            try database.transaction { connection in
                let livemode = try TestClockRepository(connection: connection).mode(of: projectId) ?? false
                try LimitUpgradeRepository(connection: connection).insertLink(
                    tokenHash: APIKeyRepository.secretHash(token),
                    .init(
                        projectId: projectId, phoneNumber: request.phoneNumber, livemode: livemode,
                        expiresAt: expiresAt, used: false),
                    now: now)
            }
            return HostedLink(
                url: "\(publicBaseURL)\(PagePaths.limitUpgrade)?sessionToken=\(token)", expiresAt: expiresAt)
        }
    }

    /// Refuses link `token` (``HeadlessFailure/upgradeLinkInvalid``) unless it can still be used.
    package func checkUsable(token: String) throws {
        guard (1...64).contains(token.utf8.count),
            let link = try database.read({
                try LimitUpgradeRepository(connection: $0).link(tokenHash: APIKeyRepository.secretHash(token))
            }),
            !link.used, schedule.realNowMilliseconds < link.expiresAt
        else { throw HeadlessFailure.upgradeLinkInvalid }
    }

    /// The hosted page's submission: spends link `token` and decides the upgrade in one transaction, returning
    /// where the upgrade now stands. A used, expired or unknown link changes nothing.
    package func submit(token: String, _ identity: LimitUpgradeIdentity) throws -> LimitUpgradeRepository.Status {
        let now = schedule.realNowMilliseconds
        let hash = APIKeyRepository.secretHash(token)
        return try database.transaction { connection in
            let upgrades = LimitUpgradeRepository(connection: connection)
            guard let link = try upgrades.link(tokenHash: hash), try upgrades.spendLink(tokenHash: hash, now: now)
            else { throw HeadlessFailure.upgradeLinkInvalid }
            return try Self.decide(
                ssnLast4: identity.ssnLast4, phone: link.phoneNumber, livemode: link.livemode, upgrades: upgrades,
                now: now)
        }
    }

    /// Records the sandbox's decision on `ssnLast4` unless the upgrade is active already; returns the status.
    @discardableResult
    private static func decide(
        ssnLast4: String, phone: String, livemode: Bool, upgrades: LimitUpgradeRepository, now: Int64
    ) throws -> LimitUpgradeRepository.Status {
        guard try upgrades.status(phone: phone, livemode: livemode) != .active else { return .active }
        let outcome = sandboxOutcomes[ssnLast4] ?? .pending
        try upgrades.record(outcome, phone: phone, livemode: livemode, now: now)
        return outcome
    }
}
