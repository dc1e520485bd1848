import Testing

@Test func OnrampCryptoTestsBuilds() {}
