import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// Stripe's `/v1/webhook_endpoints`: create, retrieve, update, list and delete webhook endpoints
/// (form-encoded, secret key auth). The `whsec_…` secret is shown only in the creation response.
struct WebhookEndpointRoutes: Sendable {
    static let basePath = "/v1/webhook_endpoints"

    let context: ServerContext
    let service: WebhookSubscriptionService

    func createEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try authenticate(request)
        let change = try WebhookSubscriptionChange(
            stripeForm: try request.parsedBody(), creating: true, targets: service.targets)
        let endpoint = try service.create(
            change, projectId: caller.projectId, family: .stripe, livemode: caller.livemode)
        return .json(endpoint.stripeEndpoint(showingSecret: true).json)
    }

    func listEndpoints(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try authenticate(request)
        let limit = try StripeListLimit.read(request.queryValue("limit"))
        let page = try service.list(
            projectId: caller.projectId, family: .stripe, livemode: caller.livemode, limit: limit + 1,
            startingAfter: request.queryValue("starting_after"))
        return .json(
            StripeList(url: Self.basePath, limit: limit, fetched: page.map { $0.stripeEndpoint(showingSecret: false) })
                .json)
    }

    func getEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try authenticate(request)
        let endpoint = try service.find(
            id: id(request), projectId: caller.projectId, family: .stripe, livemode: caller.livemode)
        return .json(endpoint.stripeEndpoint(showingSecret: false).json)
    }

    func updateEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try authenticate(request)
        let id = id(request)
        _ = try service.find(id: id, projectId: caller.projectId, family: .stripe, livemode: caller.livemode)
        let change = try WebhookSubscriptionChange(
            stripeForm: try request.parsedBody(), creating: false, targets: service.targets)
        let endpoint = try service.update(
            id: id, projectId: caller.projectId, family: .stripe, livemode: caller.livemode, change)
        return .json(endpoint.stripeEndpoint(showingSecret: false).json)
    }

    func deleteEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try authenticate(request)
        let endpoint = try service.delete(
            id: id(request), projectId: caller.projectId, family: .stripe, livemode: caller.livemode)
        return .json(StripeDeletedObject(id: endpoint.id, object: "webhook_endpoint").json)
    }

    private func authenticate(_ request: HTTPRequest) throws -> StripeCaller {
        try StripeCaller.authenticate(request, context: context, allowPublishable: false)
    }

    private func id(_ request: HTTPRequest) -> String { request.pathParameters["id"] ?? "" }
}
