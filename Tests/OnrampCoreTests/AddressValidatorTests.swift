import OnrampCore
import Testing

private func reason(_ address: String, _ format: AddressFormat) -> AddressValidationError.Reason? {
    do {
        try AddressValidator.validate(address, format: format)
        return nil
    } catch {
        return error.reason
    }
}

@Suite struct EVMAddressTests {
    @Test(arguments: [
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ])
    func acceptsEIP55Examples(address: String) throws {
        #expect(try AddressValidator.validate(address, format: .evm) == .evm)
        #expect(AddressValidator.eip55Checksummed(hexDigits: String(address.dropFirst(2))) == address)
    }

    @Test(arguments: [
        "0x52908400098527886E0F7030069857D2E4169EE7", "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        "0xde709f2102306220921060314715629080e2fb77", "0x27b1fdb04752bbc536007a920d24acb045561c26",
    ])
    func acceptsSingleCaseWithoutChecksum(address: String) throws {
        #expect(try AddressValidator.validate(address, format: .evm) == .evm)
    }

    @Test func refusesWrongChecksum() {
        #expect(reason("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", .evm) == .badChecksum)
        #expect(reason("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", .evm) == .badChecksum)
    }

    @Test func refusesWrongShape() {
        #expect(reason("5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", .evm) == .badPrefix)
        #expect(reason("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA", .evm) == .badLength)
        #expect(reason("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd", .evm) == .badLength)
        #expect(reason("0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", .evm) == .badCharacter)
        #expect(reason("", .evm) == .badLength)
    }
}

@Suite struct SolanaAddressTests {
    @Test(arguments: [
        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "11111111111111111111111111111111",
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    ])
    func acceptsPublicKeys(address: String) throws {
        #expect(try AddressValidator.validate(address, format: .solana) == .solana)
    }

    @Test func refusesCharactersOutsideBase58() {
        #expect(reason("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10", .solana) == .badCharacter)
        #expect(reason("0PjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", .solana) == .badCharacter)
    }

    @Test func refusesWrongLength() {
        #expect(reason("EPjFWdd5Aufq", .solana) == .badLength)
        #expect(reason("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vzz", .solana) == .badLength)
        #expect(reason(String(repeating: "z", count: 44), .solana) == .badPayloadLength)
    }
}

@Suite struct BitcoinAddressTests {
    @Test func acceptsP2PKH() throws {
        #expect(try AddressValidator.validate("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", format: .bitcoin) == .bitcoinP2PKH)
        #expect(try AddressValidator.validate("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", format: .bitcoin) == .bitcoinP2PKH)
    }

    @Test func acceptsP2SH() throws {
        #expect(try AddressValidator.validate("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", format: .bitcoin) == .bitcoinP2SH)
    }

    @Test func refusesBase58CheckWithBadChecksum() {
        #expect(reason("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb", .bitcoin) == .badChecksum)
        #expect(reason("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz", .bitcoin) == .badChecksum)
    }

    @Test func refusesTestnetAndUnknownPrefixes() {
        #expect(reason("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", .bitcoin) == .badPrefix)
        #expect(reason("2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", .bitcoin) == .badPrefix)
        #expect(reason("1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a", .bitcoin) == .badCharacter)
    }

    @Test(arguments: [
        ("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", 0),
        ("bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", 0),
        ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", 0),
    ])
    func acceptsBech32SegwitV0(address: String, version: Int) throws {
        #expect(try AddressValidator.validate(address, format: .bitcoin) == .bitcoinSegwit(version: version))
    }

    @Test(arguments: [
        ("bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y", 1),
        ("BC1SW50QGDZ25J", 16),
        ("bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", 2),
        ("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", 1),
    ])
    func acceptsBech32mSegwitV1AndAbove(address: String, version: Int) throws {
        #expect(try AddressValidator.validate(address, format: .bitcoin) == .bitcoinSegwit(version: version))
    }

    @Test(arguments: [
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
        "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
        "bc1rw5uspcuh",
        "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
        "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmV3",
        "bc1gmk9yu",
    ])
    func refusesInvalidSegwitFromBIP173AndBIP350(address: String) {
        #expect(reason(address, .bitcoin) != nil)
    }

    @Test func reportsWhySegwitFailed() {
        #expect(reason("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", .bitcoin) == .badChecksum)
        #expect(reason("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", .bitcoin) == .badChecksum)
        #expect(reason("bc1rw5uspcuh", .bitcoin) == .badPayloadLength)
        #expect(reason("BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", .bitcoin) == .badPayloadLength)
    }

    @Test func refusesOtherHumanReadableParts() {
        #expect(reason("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", .bitcoin) == .badPrefix)
    }

    @Test func decodesBech32VariantsDirectly() {
        #expect(Bech32.decode("A12UEL5L")?.variant == .bech32)
        #expect(Bech32.decode("a1lqfn3a")?.variant == .bech32m)
        #expect(Bech32.decode("A1G7SGD8")?.variant == nil)
    }
}

@Suite struct StellarAddressTests {
    @Test(arguments: [
        "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN",
        "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ",
    ])
    func acceptsAccountIDs(address: String) throws {
        #expect(try AddressValidator.validate(address, format: .stellar) == .stellar)
    }

    @Test func refusesBadChecksum() {
        #expect(reason("GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGA", .stellar) == .badChecksum)
    }

    @Test func refusesOtherKeyTypesAndLengths() {
        #expect(reason("SBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHOKR", .stellar) == .badPrefix)
        #expect(reason("GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUACUSI", .stellar) == .badLength)
        #expect(reason("ga7qynf7sowq3glr2bgmzehxavirza4kvwltjjfc7mgxua74p7ujvsgz", .stellar) == .badPrefix)
    }
}

@Suite struct Hex32AddressTests {
    @Test func acceptsSuiAndAptosAddresses() throws {
        let sui = "0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7"
        #expect(try AddressValidator.validate(sui, format: .hex32) == .hex32)
        let aptos = "0xBAE207659DB88BEA0CBEAD6DA0ED00AAC12EDCDDA169E591CD41C94180B46F3B"
        #expect(try AddressValidator.validate(aptos, format: .hex32) == .hex32)
    }

    @Test func refusesShortOrNonHex() {
        #expect(reason("0x2", .hex32) == .badLength)
        #expect(reason("dba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7", .hex32) == .badPrefix)
        #expect(reason("0xgba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7", .hex32) == .badCharacter)
    }
}

@Suite struct CatalogueAddressTests {
    /// XRP Ledger classic addresses (the SDK's `CryptoNetwork.xrpl`): the genesis account and ACCOUNT_ZERO.
    @Test func validatesXRPLClassicAddresses() {
        #expect(reason("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", .xrpl) == nil)
        #expect(reason("rrrrrrrrrrrrrrrrrrrrrhoLvTp", .xrpl) == nil)
        #expect(reason("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj", .xrpl) == .badChecksum)
        #expect(reason("xHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", .xrpl) == .badPrefix)
        #expect(reason("rHb9CJAWyB4rj91VRWn96Dk0kG4bwdtyTh", .xrpl) == .badCharacter, "0 is not in Ripple's alphabet")
        #expect(reason("rHb9CJAWyB4rj91", .xrpl) == .badLength)
    }

    @Test func validatesPerNetworkAndMapsToOnrampError() throws {
        let catalogue = Catalogue.standard
        #expect(try catalogue.validateAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", network: "base") == .evm)
        #expect(
            try catalogue.validateAddress("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", network: "bitcoin") == .bitcoinP2PKH)
        do {
            try catalogue.validateAddress(
                "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", network: "solana", parameter: "wallet_address")
            Issue.record("expected an error")
        } catch let error as OnrampError {
            #expect(error.code == .invalidAddress)
            #expect(error.parameter == "wallet_address")
            #expect(!error.description.contains("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"))
        }
    }

    @Test func everyEVMContractInTheStandardCatalogueIsChecksummed() throws {
        let catalogue = Catalogue.standard
        for asset in catalogue.assets {
            for deployment in asset.deployments where !deployment.contractAddress.isEmpty {
                let network = try catalogue.network(deployment.network)
                switch network.addressFormat {
                case .evm, .solana, .stellar, .xrpl:
                    #expect(
                        (try? AddressValidator.validate(deployment.contractAddress, format: network.addressFormat))
                            != nil,
                        "\(asset.symbol) on \(network.id)")
                case .hex32:
                    let account = String(deployment.contractAddress.prefix(66))
                    #expect(
                        (try? AddressValidator.validate(account, format: .hex32)) != nil,
                        "\(asset.symbol) on \(network.id)")
                case .bitcoin:
                    Issue.record("no token contracts on bitcoin")
                }
            }
        }
    }
}
