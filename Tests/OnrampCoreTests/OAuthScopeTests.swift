import OnrampCore
import Testing

@Suite struct OAuthScopeTests {
    @Test func scopesKeepTheContractsSpelling() {
        #expect(OAuthScope.allCases.map(\.rawValue) == ["kyc.status:read", "crypto:ramp", "auth.persist_login:read"])
    }

    @Test func storedListsRoundTripAndSkipUnknownNames() {
        let scopes: [OAuthScope] = [.cryptoRamp, .kycStatusRead]
        #expect(OAuthScope.storage(scopes) == "crypto:ramp,kyc.status:read")
        #expect(OAuthScope.stored(OAuthScope.storage(scopes)) == scopes)
        let withUnknown = OAuthScope.stored("crypto:ramp,retired:scope,,auth.persist_login:read")
        #expect(withUnknown == [.cryptoRamp, .persistLogin])
        #expect(OAuthScope.stored("").isEmpty)
    }
}
