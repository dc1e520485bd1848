import Testing

@Test func OnrampStoreTestsBuilds() {}
