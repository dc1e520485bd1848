import Testing

@Test func AppAttestTestsBuilds() {}
