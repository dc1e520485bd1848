import Foundation
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The redirect URL's host is read directly in its common form and through Foundation's RFC 3986
/// parser otherwise; both must name the same host (or refuse alike) for every URL, or an allowlist
/// check could be steered by the reading it meets.
@Suite struct RedirectURLTests {
    static let urls = [
        "https://partner.example.com/back", "https://partner.example.com", "https://partner.example.com?x=1",
        "https://partner.example.com#done", "https://Partner.Example.COM/back", "https://a.b-c.d./x",
        "https://partner.example.com:443/back", "https://partner.example.com@evil.example.net/",
        "https://user:secret@partner.example.com/", "https://evil.example.net/@partner.example.com",
        "https://evil.example.net?@partner.example.com", "https://evil.example.net#@partner.example.com",
        "https://[::1]/back", "https://127.0.0.1/back", "https://part%6Eer.example.com/",
        "HTTPS://partner.example.com/",
        "http://partner.example.com/", "https:///back", "https://", "https:partner.example.com",
        "https:/partner.example.com/", "https://partner.example.com:/", "ftp://partner.example.com/",
        "https://partner.example.com/a/b?c=d&e=f#g", "https://..", "https://-.example.com",
    ]

    @Test(arguments: urls)
    func theDirectReadingAgreesWithFoundation(url: String) {
        let foundation = URLComponents(string: url).flatMap { components -> String? in
            guard components.scheme?.lowercased() == "https", let host = components.host, !host.isEmpty,
                components.user == nil, components.password == nil
            else { return nil }
            return host
        }
        #expect(RedirectURL.httpsHost(url) == foundation, "\(url)")
    }

    @Test func wellFormedMeansRFC3986CharactersAndWholeEscapes() {
        #expect(RedirectURL.isWellFormed("https://a.example/b?c=%41%7e#d"))
        #expect(RedirectURL.isWellFormed("https://a.example/%41"))
        for bad in ["https://a.example/%4", "https://a.example/%", "https://a.example/%g1", "https://a b", "https://é"]
        {
            #expect(!RedirectURL.isWellFormed(bad), "\(bad)")
        }
    }
}
