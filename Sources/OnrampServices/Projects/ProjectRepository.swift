import AppAttest
import OnrampStore

/// Reads and writes projects, their App IDs and redirect hosts.
package struct ProjectRepository {
    package let connection: any SQLConnection

    /// The project `id` with its App IDs and redirect hosts (each list sorted), in one statement: one
    /// round trip on PostgreSQL, where three queries cost three.
    package func find(_ id: String) throws -> Project? {
        try connection.run(Self.lookup(id: id))
    }

    /// The query of ``find(_:)``.
    package static func lookup(id: String) -> SQLQuery<Project?> {
        lookup(projectIdSQL: "?", [.text(id)])
    }

    /// The project of challenge `challengeId`, for reading it in the challenge's round trip.
    package static func lookup(projectOfChallenge challengeId: String) -> SQLQuery<Project?> {
        lookup(projectIdSQL: ChallengeRepository.projectIdSQL, [.text(challengeId)])
    }

    /// The project whose id `projectIdSQL` gives (`?`, or a subquery), with `parameters` for it: its first
    /// row is the project's, then one per App ID and per host, told apart by `kind` (the project's row comes
    /// first so that PostgreSQL types the union's columns by it). The id is worked out once (a subquery's
    /// lookup ran once per part of the union).
    private static func lookup(projectIdSQL: String, _ parameters: [SQLValue]) -> SQLQuery<Project?> {
        SQLQuery(
            """
            WITH target(id) AS (SELECT \(projectIdSQL))
            SELECT 'p' AS kind, id AS value, name, app2app_enabled, allowed_environments FROM projects
                WHERE id = (SELECT id FROM target)
            UNION ALL SELECT 'a', app_id, NULL, NULL, NULL FROM project_app_ids
                WHERE project_id = (SELECT id FROM target)
            UNION ALL SELECT 'h', host, NULL, NULL, NULL FROM project_redirect_hosts
                WHERE project_id = (SELECT id FROM target)
            """, parameters
        ) { try project(from: $0.rows) }
    }

    private static func project(from rows: [Row]) throws -> Project? {
        guard let row = try rows.first(where: { try $0.string("kind") == "p" }) else { return nil }
        var appIds: [String] = []
        var hosts: [String] = []
        for entry in rows {
            switch try entry.string("kind") {
            case "a": appIds.append(try entry.string("value"))
            case "h": hosts.append(try entry.string("value"))
            default: break
            }
        }
        return Project(
            id: try row.string("value"), name: try row.string("name"),
            app2AppEnabled: try row.int("app2app_enabled") != 0,
            allowedEnvironments: Set(
                try row.string("allowed_environments").split(separator: ",").compactMap {
                    AppAttestEnvironment(rawValue: String($0))
                }),
            appIds: appIds.sorted(), redirectHosts: hosts.sorted())
    }

    /// A project as a listing shows it: its id, name, mode and creation time.
    package struct Summary: Sendable, Equatable {
        package let id: String
        package let name: String
        /// Whether its keys are live keys (a project's keys are all of one mode).
        package let livemode: Bool
        /// Milliseconds since 1970.
        package let createdAt: Int64
    }

    /// Every project, oldest first.
    package func list() throws -> [Summary] {
        try connection.query(
            """
            SELECT p.id, p.name, p.created_at, COALESCE(MAX(k.livemode), 0) AS livemode FROM projects p
            LEFT JOIN api_keys k ON k.project_id = p.id
            GROUP BY p.id, p.name, p.created_at ORDER BY p.created_at, p.id
            """, []
        ).map {
            Summary(
                id: try $0.string("id"), name: try $0.string("name"), livemode: try $0.int("livemode") != 0,
                createdAt: try $0.int("created_at"))
        }
    }

    /// The name of the project that owns API key `keyId` (a Link OAuth client id is a key id).
    package func name(ofAPIKey keyId: String) throws -> String? {
        try connection.query(
            "SELECT p.name FROM projects p JOIN api_keys k ON k.project_id = p.id WHERE k.id = ?", [.text(keyId)]
        ).first?.string("name")
    }

    package func insert(id: String, name: String, createdAt: Int64) throws {
        try connection.execute(
            "INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)",
            [.text(id), .text(name), .integer(createdAt)])
    }

    package func addAppId(_ appId: String, to projectId: String) throws {
        try connection.execute(
            "INSERT INTO project_app_ids (project_id, app_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [.text(projectId), .text(appId)])
    }

    package func addRedirectHost(_ host: String, to projectId: String) throws {
        try connection.execute(
            "INSERT INTO project_redirect_hosts (project_id, host) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [.text(projectId), .text(host.lowercased())])
    }

    package func setApp2AppEnabled(_ enabled: Bool, for projectId: String) throws -> Bool {
        try connection.execute(
            "UPDATE projects SET app2app_enabled = ? WHERE id = ?", [.integer(enabled ? 1 : 0), .text(projectId)]) == 1
    }

    package func setAllowedEnvironments(_ environments: Set<AppAttestEnvironment>, for projectId: String) throws -> Bool
    {
        try connection.execute(
            "UPDATE projects SET allowed_environments = ? WHERE id = ?",
            [.text(environments.map(\.rawValue).sorted().joined(separator: ",")), .text(projectId)]) == 1
    }
}
