import Testing

@testable import HTTPServer

/// What the request log keeps of a body: JSON and forms with every secret, token and card detail redacted,
/// the rest described only.
@Suite struct LoggedBodyTests {
    func kept(_ text: String, _ contentType: String? = "application/json") -> String? {
        LoggedBody.text(of: Array(text.utf8), contentType: contentType)
    }

    @Test func secretsTokensAndCardDetailsAreRedactedByName() {
        let body = """
            {"client_secret":"abc","access_token":"t1","refreshToken":"t2","password":"p","privateKey":"k",
            "card":{"number":"4000 0566 5566 5556","cvc":"123","exp_month":12,"exp_year":2030},
            "account_number":"000123456789","id_number":"000000000","code_verifier":"v","otp":"1",
            "amount":"10.00","email":"ada@example.com","stripePublishableKey":"pk_test_123"}
            """
        let text = kept(body) ?? ""
        for secret in ["abc", "\"t1\"", "\"t2\"", "\"p\"", "\"k\"", "5556", "\"123\"", "2030", "000123456789", "\"v\""]
        {
            #expect(!text.contains(secret), "\(secret) in \(text)")
        }
        #expect(text.contains("\"amount\":\"10.00\"") && text.contains("ada@example.com"), "the rest stays")
        #expect(text.contains("pk_test_123"), "a publishable key is public")
        #expect(text.contains("\"card\":{\"number\":\"[redacted]\",\"cvc\":\"[redacted]\""))
    }

    @Test func secretsAreRedactedByTheirLookUnderAnyName() {
        let jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
        let text =
            kept(
                """
                {"a":"sk_test_51abcdefghijkl","b":"pi_3abc_secret_defghijkl","c":"\(jwt)","d":"4242424242424242",
                "e":["whsec_0123456789abcdef"],"f":"4242424242424241","g":"lsk_0123456789abcd"}
                """) ?? ""
        #expect(
            text
                == #"{"a":"[redacted]","b":"[redacted]","c":"[redacted]","d":"[redacted]","e":["[redacted]"],"f":"4242424242424241","g":"[redacted]"}"#,
            "a number failing the Luhn check is not a card")
    }

    @Test func aOneTimeCodeIsRedactedAndAnErrorCodeStays() {
        #expect(kept(#"{"code":"123456"}"#) == #"{"code":"[redacted]"}"#)
        #expect(kept(#"{"error":{"code":"resource_missing"}}"#) == #"{"error":{"code":"resource_missing"}}"#)
    }

    @Test func formsKeepTheirEncodingAndLoseTheirSecrets() {
        let form = "type=card&card%5Bnumber%5D=4242424242424242&card[cvc]=314&card[exp_month]=12&description=a+b"
        #expect(
            kept(form, "application/x-www-form-urlencoded; charset=utf-8")
                == "type=card&card%5Bnumber%5D=[redacted]&card[cvc]=[redacted]&card[exp_month]=[redacted]"
                + "&description=a+b")
    }

    /// A form's value is judged decoded (`+` as a space, `%XX`), and kept as sent.
    @Test func anEncodedCardNumberOrCodeInAFormIsStillRedacted() {
        let form = "number=4242+4242+4242+4242&other=4242%204242%204242%204242&code=123456&note=caf%C3%A9"
        #expect(
            kept(form, "Application/X-WWW-Form-URLEncoded")
                == "number=[redacted]&other=[redacted]&code=[redacted]&note=caf%C3%A9")
    }

    @Test func otherMediaTypesAreDescribedNotKept() {
        #expect(
            kept("<input name=\"pageSecret\" value=\"s\">", "text/html; charset=utf-8")
                == "(text/html, 35 bytes, not kept)")
        #expect(kept("not json") == "(8 bytes, not JSON)")
        #expect(kept("") == nil)
    }

    @Test func aLongBodyIsCutOnACharacterBoundary() {
        let text = kept("{\"note\":\"" + String(repeating: "é", count: 2000) + "\"}") ?? ""
        #expect(text.hasSuffix("…"))
        #expect(text.utf8.count <= LoggedBody.limit + "…".utf8.count)
        #expect(text.dropLast().allSatisfy { $0 == "é" || "{\":note".contains($0) })
    }

    @Test func namesAreReadAsWordsWithoutCase() {
        for name in ["clientSecret", "CLIENT_SECRET", "card[exp_month]", "userAuthToken", "cardNumber", "apiKey"] {
            #expect(kept(#"{"\#(name)":"x"}"#) == #"{"\#(name)":"[redacted]"}"#, "\(name)")
        }
        for name in ["idempotency_key", "public_key", "description", "tokens", "secretary", "zip_code", "keyId"] {
            #expect(kept(#"{"\#(name)":"x"}"#) == #"{"\#(name)":"x"}"#, "\(name)")
        }
    }

    /// The bodies of at most ``RequestLog/bodiesPerSecond`` requests a second are kept, and of every refusal.
    @Test func aLoadKeepsTheBodiesOfSomeRequestsAndOfEveryRefusal() {
        let log = RequestLog()
        let kept = (0..<(log.bodiesPerSecond * 3)).filter { _ in log.keepsBodies(refused: false) }.count
        #expect(kept >= log.bodiesPerSecond && kept <= 2 * log.bodiesPerSecond, "a second or two")
        #expect(log.keepsBodies(refused: true))
        let none = RequestLog(bodiesPerSecond: 0)
        #expect(!none.keepsBodies(refused: false) && !none.keepsBodies(refused: true), "0 keeps none")
    }
}
