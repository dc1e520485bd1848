import Foundation
import OnrampClient
import OnrampCrypto
import OnrampWire
import Testing

/// The redirect parser and the client data hash, without a server.
struct OnrampRedirectTests {
    @Test func successCarriesTheTransactionId() throws {
        let url = URL(
            string:
                "https://wallet.example.com/onramp-return?status=success&transactionId=tx-1&sessionToken=s&partnerUserRef=u&handshakeNonce=n"
        )!
        #expect(
            try OnrampRedirect(url: url)
                == .success(transactionId: "tx-1", sessionToken: "s", partnerUserRef: "u", handshakeNonce: "n"))
    }

    @Test func errorAndCancelledCarryNoReason() throws {
        let error = URL(string: "https://w.example.com/r?status=error&sessionToken=s&partnerUserRef=u")!
        let cancelled = URL(string: "https://w.example.com/r?status=cancelled&sessionToken=s")!
        #expect(try OnrampRedirect(url: error) == .error(sessionToken: "s", partnerUserRef: "u"))
        #expect(try OnrampRedirect(url: cancelled) == .cancelled(sessionToken: "s", partnerUserRef: nil))
    }

    @Test func unknownStatusOrSuccessWithoutIdIsRefused() {
        for text in [
            "https://w.example.com/r?status=done", "https://w.example.com/r", "https://w.example.com/r?status=success",
        ] {
            #expect(throws: App2AppError.self) { try OnrampRedirect(url: URL(string: text)!) }
        }
    }

    @Test func clientDataHashDecodesBeforeHashing() throws {
        let bytes: [UInt8] = Array(0..<32)
        let challenge = Base64URL.encode(bytes)
        #expect(try App2AppClient.clientDataHash(challenge: challenge) == SHA256.hash(bytes))
        #expect(try App2AppClient.clientDataHash(challenge: challenge) != SHA256.hash(challenge))
    }
}
