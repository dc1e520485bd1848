import Testing

@Test func HTTPServerTestsBuilds() {}
