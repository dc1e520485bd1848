/// How many deliveries each endpoint (subscription) and each project has in flight on this instance, and
/// the most each may have: one tenant's slow or never-answering endpoints hold at most their share of the
/// dispatcher's slots (each up to the request timeout), never all of them, so other tenants' deliveries
/// keep going out while they hang.
package struct WebhookFairShare: Sendable, Equatable {
    /// The most deliveries one endpoint may have in flight.
    package let perEndpoint: Int
    /// The most deliveries one project's endpoints may have in flight together.
    package let perProject: Int
    package private(set) var endpoints: [String: Int] = [:]
    package private(set) var projects: [String: Int] = [:]

    package init(perEndpoint: Int, perProject: Int) {
        self.perEndpoint = max(1, perEndpoint)
        self.perProject = max(1, perProject)
    }

    /// The endpoints at their share, which a claim leaves out.
    package var fullEndpoints: [String] { endpoints.filter { $0.value >= perEndpoint }.map(\.key).sorted() }
    /// The projects at their share, which a claim leaves out.
    package var fullProjects: [String] { projects.filter { $0.value >= perProject }.map(\.key).sorted() }

    /// Takes a slot for a delivery to `endpoint` of `project` when both have room; false otherwise.
    package mutating func take(endpoint: String, project: String) -> Bool {
        guard endpoints[endpoint, default: 0] < perEndpoint, projects[project, default: 0] < perProject else {
            return false
        }
        endpoints[endpoint, default: 0] += 1
        projects[project, default: 0] += 1
        return true
    }

    /// Gives back the slot of a finished delivery.
    package mutating func release(endpoint: String, project: String) {
        endpoints[endpoint] = endpoints[endpoint].flatMap { $0 > 1 ? $0 - 1 : nil }
        projects[project] = projects[project].flatMap { $0 > 1 ? $0 - 1 : nil }
    }
}
