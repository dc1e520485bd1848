import Testing

@Test func OnrampCoreTestsBuilds() {}
