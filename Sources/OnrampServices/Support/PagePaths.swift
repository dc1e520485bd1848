/// Where this server's pages live, for the links services hand out (the page that serves each path names it
/// from here too).
package enum PagePaths {
    /// The App2App handoff page a session's `onrampUrl` opens.
    package static let handoff = "/onramp/app2app"
    /// The Embedded sandbox's 3-D Secure challenge page.
    package static let threeDSecure = "/embedded/test/3ds"
    /// The Headless embedded-mode order page (contact, code, then the wallet's button page).
    package static let embeddedOrder = "/v3/api-onramp/embedded-order"
    /// The Headless embedded-mode limit upgrade page.
    package static let limitUpgrade = "/v2/api-onramp/upgrade-limits"
}
