import OnrampCore
import OnrampStore

/// What a crypto customer accepted of the declarations the SDK shows (the CRS/CARF tax declaration,
/// the partner's terms): a term accepted once is no longer required.
package struct DeclarationService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
    }

    /// Whether `customerId` accepted a declaration of `kind`.
    package func hasAccepted(_ kind: String, customerId: String) throws -> Bool {
        try database.read {
            try CustomerDeclarationRepository(connection: $0, customerId: customerId).hasAccepted(kind)
        }
    }

    /// Records that `customerId` accepted `declarationId`, a declaration of `kind`, now.
    package func accept(_ kind: String, declarationId: String, customerId: String) throws {
        let now = Timestamp.milliseconds(clock.now())
        try database.transaction {
            try CustomerDeclarationRepository(connection: $0, customerId: customerId).accept(
                kind, declarationId: declarationId, now: now)
        }
    }
}
