import AppAttest
import OnrampStore

/// Reads and writes projects, their App IDs and redirect hosts.
struct ProjectRepository {
    let connection: any SQLConnection

    func find(_ id: String) throws -> Project? {
        guard let row = try connection.query("SELECT * FROM projects WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        let appIds = try connection.query(
            "SELECT app_id FROM project_app_ids WHERE project_id = ? ORDER BY app_id", [.text(id)]
        ).map { try $0.string("app_id") }
        let hosts = try connection.query(
            "SELECT host FROM project_redirect_hosts WHERE project_id = ? ORDER BY host", [.text(id)]
        ).map { try $0.string("host") }
        return Project(
            id: try row.string("id"), name: try row.string("name"),
            app2AppEnabled: try row.int("app2app_enabled") != 0,
            allowedEnvironments: Set(
                try row.string("allowed_environments").split(separator: ",").compactMap {
                    AppAttestEnvironment(rawValue: String($0))
                }),
            appIds: appIds, redirectHosts: hosts)
    }

    /// The name of the project that owns API key `keyId` (a Link OAuth client id is a key id).
    func name(ofAPIKey keyId: String) throws -> String? {
        try connection.query(
            "SELECT p.name FROM projects p JOIN api_keys k ON k.project_id = p.id WHERE k.id = ?", [.text(keyId)]
        ).first?.string("name")
    }

    func insert(id: String, name: String, createdAt: Int64) throws {
        try connection.execute(
            "INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)",
            [.text(id), .text(name), .integer(createdAt)])
    }

    func addAppId(_ appId: String, to projectId: String) throws {
        try connection.execute(
            "INSERT INTO project_app_ids (project_id, app_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [.text(projectId), .text(appId)])
    }

    func addRedirectHost(_ host: String, to projectId: String) throws {
        try connection.execute(
            "INSERT INTO project_redirect_hosts (project_id, host) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [.text(projectId), .text(host.lowercased())])
    }

    func setApp2AppEnabled(_ enabled: Bool, for projectId: String) throws -> Bool {
        try connection.execute(
            "UPDATE projects SET app2app_enabled = ? WHERE id = ?", [.integer(enabled ? 1 : 0), .text(projectId)]) == 1
    }

    func setAllowedEnvironments(_ environments: Set<AppAttestEnvironment>, for projectId: String) throws -> Bool {
        try connection.execute(
            "UPDATE projects SET allowed_environments = ? WHERE id = ?",
            [.text(environments.map(\.rawValue).sorted().joined(separator: ",")), .text(projectId)]) == 1
    }
}
