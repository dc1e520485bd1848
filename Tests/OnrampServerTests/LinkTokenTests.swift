import Foundation
import OnrampCore
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Link sign-in: LinkAuthIntent states, OTP limits, refresh-token rotation and reuse, seamless
/// sign-in and log out.
@Suite(.serialized, .blocking) struct LinkTokenTests {
    private func refresh(_ server: EmbeddedTestServer, _ token: String) throws -> StripeTestClient.Reply {
        try server.backend.post(
            "/auth/token",
            [
                ("grant_type", "refresh_token"), ("refresh_token", token),
                ("client_id", server.credentials.oauthClientId),
                ("client_secret", server.credentials.oauthClientSecret),
            ])
    }

    @Test func refreshRotatesAndTheOldTokenDies() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let first = try refresh(server, user.refreshToken)
        #expect(first.status == 200, "\(first)")
        #expect(first.string("access_token").hasPrefix("liwltoken_"))
        #expect(first.string("refresh_token").hasPrefix("liwlrefresh_"))
        #expect(first.string("refresh_token") != user.refreshToken)
        #expect(first["expires_in"] as? Int == 3600)
        let fresh = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)", headers: [("Stripe-OAuth-Token", first.string("access_token"))])
        #expect(fresh.status == 200)
        let second = try refresh(server, first.string("refresh_token"))
        #expect(second.status == 200)
    }

    @Test func reusingARefreshTokenRevokesTheFamily() throws {
        let clock = ManualClock(Date())
        let server = try EmbeddedTestServer(clock: clock)
        let user = try server.signUpAndAuthorize()
        let rotated = try refresh(server, user.refreshToken)
        clock.advance(by: Double(OAuthTokens.concurrentRotationSeconds))
        let reuse = try refresh(server, user.refreshToken)
        #expect(reuse.status == 400)
        #expect(reuse.string("error") == "invalid_grant", "\(reuse)")
        #expect(try refresh(server, rotated.string("refresh_token")).string("error") == "invalid_grant")
        for token in [user.accessToken, rotated.string("access_token")] {
            let call = try server.backend.get(
                "/v1/crypto/customers/\(user.customerId)", headers: [("Stripe-OAuth-Token", token)])
            #expect(call.status == 401 && call.string("error.code") == "oauth_token_invalid", "\(call)")
        }
    }

    @Test func refreshNeedsTheClientSecret() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let reply = try server.backend.post(
            "/auth/token",
            [
                ("grant_type", "refresh_token"), ("refresh_token", user.refreshToken),
                ("client_id", server.credentials.oauthClientId), ("client_secret", "lnk_oauth_secret_wrong"),
            ])
        #expect(reply.status == 401 && reply.string("error") == "invalid_client")
        #expect(try refresh(server, user.refreshToken).status == 200)
    }

    @Test func accessTokensExpireAfterAnHour() throws {
        let clock = ManualClock(Date())
        let server = try EmbeddedTestServer(clock: clock)
        let user = try server.signUpAndAuthorize()
        clock.advance(by: 3601)
        let call = try server.backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
        #expect(call.status == 401 && call.string("error.code") == "oauth_token_invalid")
        #expect(try refresh(server, user.refreshToken).status == 200)
    }

    @Test func scopesAreChecked() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize(scopes: "kyc.status:read")
        #expect(try server.backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth).status == 200)
        let wallets = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/crypto_consumer_wallets", headers: user.oauth)
        #expect(wallets.status == 403 && wallets.string("error.code") == "oauth_scope_missing")
        let missing = try server.backend.get("/v1/crypto/customers/\(user.customerId)")
        #expect(missing.status == 401 && missing.string("error.code") == "oauth_token_missing")
    }

    private func intent(_ server: EmbeddedTestServer, email: String) throws -> (id: String, secret: String) {
        let intent = try server.backend.postJSON(
            "/v1/link_auth_intent",
            ["email": email, "oauth_client_id": server.credentials.oauthClientId, "oauth_scopes": "crypto:ramp"])
        let session = try server.sdk.post(
            "/v1/consumers/sessions/lookup", [("link_auth_intent_id", intent.string("id"))])
        let secret = session.string("consumer_session.client_secret")
        _ = try server.sdk.post(
            "/v1/consumers/sessions/start_verification", [("credentials[consumer_session_client_secret]", secret)])
        return (intent.string("id"), secret)
    }

    /// Parallel refreshes with one token (two tabs, a retry): one gets new tokens that work, the others a
    /// clear `invalid_grant`, and nothing the winner was given is revoked.
    @Test func concurrentRefreshesGetOneWinnerAndClearRefusals() throws {
        let server = try EmbeddedTestServer()
        var user = try server.signUpAndAuthorize()
        for _ in 0..<3 {
            let replies = Mutex<[(status: Int, error: String, access: String, refresh: String)]>([])
            let token = user.refreshToken
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                guard let reply = try? refresh(server, token) else { return }
                let answer = (
                    reply.status, reply.string("error"), reply.string("access_token"), reply.string("refresh_token")
                )
                replies.withLock { $0.append(answer) }
            }
            let all = replies.withLock { $0 }
            let winners = all.filter { $0.status == 200 }
            #expect(all.count == 6)
            #expect(winners.count == 1, "\(all.map(\.status))")
            #expect(all.filter { $0.status == 400 && $0.error == "invalid_grant" }.count == 5)
            let winner = try #require(winners.first)
            let call = try server.backend.get(
                "/v1/crypto/customers/\(user.customerId)", headers: [("Stripe-OAuth-Token", winner.access)])
            #expect(call.status == 200, "the winner's access token is live: \(call)")
            user.refreshToken = winner.refresh
        }
        #expect(try refresh(server, user.refreshToken).status == 200, "and so is its refresh token")
    }

    /// One token family per consent: a second call is refused (the secrets are shown once), unless it
    /// repeats the first call's Idempotency-Key, which replays the same answer.
    @Test func intentTokensAreIssuedOncePerConsent() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let (id, secret) = try intent(server, email: user.email)
        let consented = try server.sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [("credentials[consumer_session_client_secret]", secret), ("code", "000000"), ("consent_granted", "true")])
        #expect(consented.string("link_auth_intent.status") == "consented", "\(consented)")
        let key = [("Idempotency-Key", "tokens-\(id)")]
        let first = try server.backend.post("/v1/link_auth_intent/\(id)/tokens", headers: key)
        #expect(first.status == 200)
        let replay = try server.backend.post("/v1/link_auth_intent/\(id)/tokens", headers: key)
        #expect(replay.string("access_token") == first.string("access_token"))
        let second = try server.backend.post("/v1/link_auth_intent/\(id)/tokens")
        #expect(second.status == 409 && second.string("error.code") == "link_auth_intent_tokens_issued", "\(second)")
        let families = try server.database.read {
            try $0.query(
                "SELECT DISTINCT family_id FROM oauth_tokens WHERE consumer_id IN (SELECT consumer_id FROM link_auth_intents WHERE id = ?)",
                [.text(id)])
        }
        #expect(families.count == 2, "the first consent's family and this one's, nothing more")
    }

    @Test func consentRefusedRejectsTheIntent() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let (id, secret) = try intent(server, email: user.email)
        let refused = try server.sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [("credentials[consumer_session_client_secret]", secret), ("code", "000000"), ("consent_granted", "false")])
        #expect(refused.string("link_auth_intent.status") == "rejected", "\(refused)")
        let tokens = try server.backend.post("/v1/link_auth_intent/\(id)/tokens")
        #expect(tokens.status == 403 && tokens.string("error.code") == "link_auth_intent_not_consented")
    }

    /// Consent granted and refused at the same moment: one answer wins and the intent ends as it says
    /// (on PostgreSQL the intent row is not locked by the read, so the write checks the state it read).
    @Test func concurrentConsentAnswersLeaveOneOutcome() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        for _ in 0..<6 {
            let (id, secret) = try intent(server, email: user.email)
            // A second consumer session for the same intent (its own OTP row lock, so nothing else serializes them).
            let other = try server.sdk.post("/v1/consumers/sessions/lookup", [("link_auth_intent_id", id)])
                .string("consumer_session.client_secret")
            _ = try server.sdk.post(
                "/v1/consumers/sessions/start_verification", [("credentials[consumer_session_client_secret]", other)])
            let secrets = [secret, other]
            let replies = Mutex<[(status: Int, intentStatus: String)]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let reply = try? server.sdk.post(
                    "/v1/consumers/sessions/confirm_verification",
                    [
                        ("credentials[consumer_session_client_secret]", secrets[index]), ("code", "000000"),
                        ("consent_granted", index == 0 ? "true" : "false"),
                    ])
                if let reply {
                    let answer = (reply.status, reply.string("link_auth_intent.status"))
                    replies.withLock { $0.append(answer) }
                }
            }
            let winners = replies.withLock { $0 }.filter { $0.status == 200 }
            #expect(winners.count == 1, "\(replies.withLock { $0 })")
            let stored = try server.database.read {
                try $0.query("SELECT status FROM link_auth_intents WHERE id = ?", [.text(id)]).first?.string("status")
            }
            #expect(winners.first?.intentStatus == stored)
        }
    }

    @Test func authenticatedWithoutConsentGetsNoTokens() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let (id, secret) = try intent(server, email: user.email)
        let authenticated = try server.sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [("credentials[consumer_session_client_secret]", secret), ("code", "000000")])
        #expect(authenticated.string("link_auth_intent.status") == "authenticated", "\(authenticated)")
        #expect(try server.backend.post("/v1/link_auth_intent/\(id)/tokens").status == 403)
    }

    @Test func intentsExpire() throws {
        let clock = ManualClock(Date())
        let server = try EmbeddedTestServer(clock: clock)
        let user = try server.signUpAndAuthorize()
        let (id, secret) = try intent(server, email: user.email)
        clock.advance(by: 601)
        let late = try server.sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [("credentials[consumer_session_client_secret]", secret), ("code", "000000"), ("consent_granted", "true")])
        #expect(late.status == 400 && late.string("error.code") == "link_auth_intent_expired", "\(late)")
        let tokens = try server.backend.post("/v1/link_auth_intent/\(id)/tokens")
        #expect(tokens.status == 403 && tokens.string("error.message").contains("expired"))
    }

    @Test func parallelWrongCodesCannotPassTheLimit() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let (_, secret) = try intent(server, email: user.email)
        let credential = ("credentials[consumer_session_client_secret]", secret)
        let codes = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            let reply = try? server.sdk.post(
                "/v1/consumers/sessions/confirm_verification", [credential, ("code", "123456")])
            codes.withLock { $0.append(reply?.string("error.code") ?? "none") }
        }
        // At most five guesses are ever judged; the rest are refused as locked.
        #expect(codes.withLock { $0.filter { $0 == "consumer_verification_code_invalid" }.count } == 5)
        #expect(codes.withLock { $0.filter { $0 == "consumer_verification_locked" }.count } == 7)
    }

    @Test func fiveWrongCodesLockTheConsumer() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let (_, secret) = try intent(server, email: user.email)
        let credential = ("credentials[consumer_session_client_secret]", secret)
        for _ in 0..<5 {
            let wrong = try server.sdk.post(
                "/v1/consumers/sessions/confirm_verification", [credential, ("code", "123456")])
            #expect(wrong.string("error.code") == "consumer_verification_code_invalid")
        }
        let locked = try server.sdk.post(
            "/v1/consumers/sessions/confirm_verification", [credential, ("code", "000000")],
            headers: [("Idempotency-Key", "confirm-after-lock")])
        #expect(locked.status == 429 && locked.string("error.code") == "consumer_verification_locked", "\(locked)")
        // A 429 is for retrying later: its idempotency key is released, not kept to replay the refusal.
        let kept = try server.database.read {
            try $0.query(
                "SELECT COUNT(*) AS n FROM stripe_idempotency_keys WHERE idempotency_key = 'confirm-after-lock'"
            ).first?.int("n")
        }
        #expect(kept == 0)
        let (_, fresh) = try intent(server, email: user.email)
        let stillLocked = try server.sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [("credentials[consumer_session_client_secret]", fresh), ("code", "000000")])
        #expect(stillLocked.status == 429, "a new session does not reset the count: \(stillLocked)")
    }

    @Test func seamlessSignInSecretWorksOnce() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let exists = try server.sdk.post("/v1/consumers/sessions/lookup", [("email_address", user.email)])
        #expect(exists["exists"] as? Bool == true)
        let first = try server.signUpAndAuthorizeExisting(email: user.email)
        let latcs = try server.backend.post("/v1/link_auth_tokens/client_secret", [("link_auth_token", first)])
        #expect(latcs.string("link_auth_token_client_secret").hasPrefix("latcs_"), "\(latcs)")
        let signIn = try server.sdk.post(
            "/v1/consumers/sessions/lookup",
            [("link_auth_token_client_secret", latcs.string("link_auth_token_client_secret"))])
        #expect(signIn.string("consumer_session.verification_sessions.0.type") == "LINK_AUTH_TOKEN", "\(signIn)")
        #expect(signIn.string("consumer_session.verification_sessions.0.state") == "VERIFIED", "\(signIn)")
        let customer = try server.sdk.post(
            "/v1/crypto/internal/customers",
            [("credentials[consumer_session_client_secret]", signIn.string("consumer_session.client_secret"))])
        #expect(customer.status == 200 && customer.string("id") == user.customerId, "\(customer)")
        let reuse = try server.sdk.post(
            "/v1/consumers/sessions/lookup",
            [("link_auth_token_client_secret", latcs.string("link_auth_token_client_secret"))])
        #expect(reuse.status == 400 && reuse.string("error.code") == "seamless_sign_in_token_invalid")
    }

    @Test func logOutEndsTheConsumerSession() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let loggedOut = try server.sdk.post("/v1/consumers/sessions/log_out", [user.credentials])
        #expect(loggedOut.string("consumer_session.email_address") == user.email.lowercased(), "\(loggedOut)")
        let after = try server.sdk.get("/v1/crypto/internal/kyc_data_retrieve", [user.credentials])
        #expect(after.status == 401 && after.string("error.code") == "consumer_session_invalid")
    }
}

extension EmbeddedTestServer {
    /// Authorizes an existing consumer again with `auth.persist_login:read` and returns the seamless
    /// sign-in token the partner's backend receives with the OAuth tokens.
    func signUpAndAuthorizeExisting(email: String) throws -> String {
        let intent = try backend.postJSON(
            "/v1/link_auth_intent",
            [
                "email": email, "oauth_client_id": credentials.oauthClientId,
                "oauth_scopes": "crypto:ramp,auth.persist_login:read",
            ])
        let session = try sdk.post("/v1/consumers/sessions/lookup", [("link_auth_intent_id", intent.string("id"))])
        let credential = (
            "credentials[consumer_session_client_secret]", session.string("consumer_session.client_secret")
        )
        _ = try sdk.post("/v1/consumers/sessions/start_verification", [credential])
        let confirmed = try sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [credential, ("code", "000000"), ("consent_granted", "true")])
        #expect(confirmed["link_auth_token"] == nil, "the SDK never sees the token: \(confirmed)")
        return try backend.post("/v1/link_auth_intent/\(intent.string("id"))/tokens").string("link_auth_token")
    }
}
