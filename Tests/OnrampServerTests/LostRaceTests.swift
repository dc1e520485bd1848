import Dispatch
import Foundation
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Requests that race for the same unique row answer like the winner or with the contract's error,
/// never 500 (on PostgreSQL a check-then-insert lets the loser hit the unique index). The Embedded test
/// server runs on PostgreSQL under `scripts/with-postgres.sh`.
@Suite(.serialized, .blocking) struct LostRaceTests {
    @Test func parallelSignUpsWithOneEmailMakeOneAccount() throws {
        let server = try EmbeddedTestServer(transport: .live)
        for round in 0..<3 {
            let email = "race-\(round)-\(UUID().uuidString.prefix(6))@example.com".lowercased()
            let replies = Mutex<[(Int, String)]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                guard
                    let reply = try? server.sdk.post(
                        "/v1/consumers/accounts/sign_up",
                        [
                            ("email_address", email), ("phone_number", "+14155550123"), ("country", "US"),
                            ("legal_name", "Ada Verified"),
                        ])
                else { return }
                replies.withLock { $0.append((reply.status, reply.string("error.code"))) }
            }
            let answers = replies.withLock { $0 }
            #expect(answers.count == 8)
            #expect(answers.filter { $0.0 == 200 }.count == 1, "\(answers)")
            #expect(answers.filter { $0 == (400, "link_account_already_exists") }.count == 7, "\(answers)")
            let accounts = try server.database.read {
                try $0.query("SELECT id FROM link_consumers WHERE email = ?", [.text(email)])
            }
            #expect(accounts.count == 1)
        }
    }

    @Test func parallelCustomerCreationAnswersTheSameCustomer() throws {
        let server = try EmbeddedTestServer(transport: .live)
        for _ in 0..<3 {
            let email = "customer-\(UUID().uuidString.prefix(6))@example.com"
            let signUp = try server.sdk.post(
                "/v1/consumers/accounts/sign_up",
                [("email_address", email), ("phone_number", "+14155550123"), ("country", "US")])
            let credential = (
                "credentials[consumer_session_client_secret]", signUp.string("consumer_session.client_secret")
            )
            _ = try server.sdk.post("/v1/consumers/sessions/start_verification", [credential, ("type", "SMS")])
            let verified = try server.sdk.post(
                "/v1/consumers/sessions/confirm_verification", [credential, ("code", "000000")])
            #expect(verified.status == 200, "\(verified)")
            let replies = Mutex<[(Int, String)]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                guard let reply = try? server.sdk.post("/v1/crypto/internal/customers", [credential]) else { return }
                replies.withLock { $0.append((reply.status, reply.string("id"))) }
            }
            let answers = replies.withLock { $0 }
            #expect(answers.count == 8)
            #expect(answers.allSatisfy { $0.0 == 200 }, "\(answers)")
            #expect(Set(answers.map(\.1)).count == 1, "\(answers)")
        }
    }
}
