import OnrampCore
import Testing

@Test func standardCatalogueIsValid() throws {
  try Catalogue.standard.validate()
}
