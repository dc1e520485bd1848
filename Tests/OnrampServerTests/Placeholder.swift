import Testing

@Test func OnrampServerTestsBuilds() {}
