import Foundation
import OnrampCore
import Testing

@Suite struct IdGeneratorTests {
    private let base62 = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    @Test func idsArePrefixedBase62() {
        let id = IdGenerator(random: SeededRandomSource(seed: 1)).id(prefix: IdPrefix.onrampSession)
        #expect(id.hasPrefix("cos_"))
        #expect(id.count == 4 + 24)
        #expect(id.dropFirst(4).allSatisfy { base62.contains($0) })
    }

    @Test func seededSourceIsDeterministic() {
        let first = IdGenerator(random: SeededRandomSource(seed: 42))
        let second = IdGenerator(random: SeededRandomSource(seed: 42))
        #expect(first.id(prefix: "crc") == second.id(prefix: "crc"))
        #expect(SeededRandomSource(seed: 7).bytes(16) == SeededRandomSource(seed: 7).bytes(16))
        #expect(SeededRandomSource(seed: 7).bytes(16) != SeededRandomSource(seed: 8).bytes(16))
    }

    @Test func systemSourceGivesDistinctIds() {
        let generator = IdGenerator()
        let ids = Set((0..<100).map { _ in generator.id(prefix: "evt") })
        #expect(ids.count == 100)
        for count in [0, 1, 7, 8, 9, 32, 33] { #expect(SystemRandomSource().bytes(count).count == count) }
        // Every byte value shows up in 16 KiB (a miss has probability below 1e-25).
        #expect(Set(SystemRandomSource().bytes(16_384)).count == 256)
    }

    /// Version 7: the millisecond time in the first 48 bits, version and variant set, random after; the
    /// text sorts in time order and two made in one millisecond differ.
    @Test func timeOrderedUUIDsCarryTheirMillisecondAndSortInTimeOrder() {
        let generator = IdGenerator()
        let milliseconds: Int64 = 1_764_936_000_123  // 2025-12-05T12:00:00.123Z
        let id = generator.timeOrderedUUID(milliseconds: milliseconds)
        #expect(id.count == 36)
        let hex = id.replacingOccurrences(of: "-", with: "")
        #expect(UInt64(hex.prefix(12), radix: 16) == UInt64(milliseconds))
        #expect(Array(id)[14] == "7")
        #expect("89ab".contains(Array(id)[19]))
        #expect(UUID(uuidString: id) != nil)
        let later = (1...50).map { generator.timeOrderedUUID(milliseconds: milliseconds + Int64($0) * 997) }
        #expect(later == later.sorted() && later.first! > id)
        #expect(
            generator.timeOrderedUUID(milliseconds: milliseconds)
                != generator.timeOrderedUUID(milliseconds: milliseconds))
        #expect(IdGenerator.uuidString(from: Array(0..<16)) == "00010203-0405-0607-0809-0a0b0c0d0e0f")
    }

    /// The shape of a random id (`evt_` and 24 base62 characters), its first 8 the millisecond in base62
    /// (most significant first): the text sorts in time order, across digit carries too, and two made
    /// in one millisecond differ in their 16 random characters.
    @Test func timeOrderedIDsHaveTheIdShapeAndSortInTimeOrder() {
        let generator = IdGenerator()
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        func milliseconds(of id: String) -> Int64 {
            id.dropFirst(4).prefix(8).reduce(0) { $0 * 62 + Int64(digits.firstIndex(of: $1)!) }
        }
        let now: Int64 = 1_764_936_000_123
        let id = generator.timeOrderedID(prefix: IdPrefix.event, milliseconds: now)
        #expect(id.hasPrefix("evt_") && id.count == 4 + 24)
        #expect(id.dropFirst(4).allSatisfy { base62.contains($0) })
        #expect(milliseconds(of: id) == now)
        #expect(milliseconds(of: generator.timeOrderedID(prefix: "evt", milliseconds: 0)) == 0)
        // 61 → 62 and 3843 → 3844 carry into the next digit; the text must still sort.
        let times: [Int64] = [0, 1, 61, 62, 63, 3843, 3844, now - 1, now, now + 1, 218_340_105_584_895]
        let ids = times.map { generator.timeOrderedID(prefix: "evt", milliseconds: $0) }
        #expect(ids == ids.sorted())
        #expect(ids.map(milliseconds(of:)) == times)
        #expect(
            generator.timeOrderedID(prefix: "evt", milliseconds: now)
                != generator.timeOrderedID(prefix: "evt", milliseconds: now))
    }

    @Test func clientSecretsNameTheirObject() {
        let generator = IdGenerator(random: SeededRandomSource(seed: 3))
        let id = generator.id(prefix: "cos")
        let secret = generator.clientSecret(for: id)
        #expect(secret.hasPrefix(id + "_secret_"))
        #expect(IdGenerator.objectID(fromClientSecret: secret) == id)
        #expect(IdGenerator.objectID(fromClientSecret: id) == nil)
        #expect(IdGenerator.objectID(fromClientSecret: id + "_secret_short") == nil)
    }

    @Test func theSystemSourceFillsEachRequestWithFreshBytes() {
        let source = SystemRandomSource()
        let draws = (0..<4).map { _ in source.bytes(32) }
        #expect(draws.allSatisfy { $0.count == 32 })
        #expect(Set(draws).count == 4)
        #expect(source.bytes(0).isEmpty && source.bytes(3).count == 3)
    }
}

@Suite struct ClockTests {
    @Test func manualClockMovesOnlyWhenTold() {
        let start = Date(timeIntervalSince1970: 1_000)
        let clock = ManualClock(start)
        #expect(clock.now() == start)
        clock.advance(by: 60)
        #expect(clock.now() == start.addingTimeInterval(60))
        clock.set(start)
        #expect(clock.now() == start)
    }

    @Test func systemClockIsNearNow() {
        let clock: any Clock = SystemClock()
        #expect(abs(clock.now().timeIntervalSinceNow) < 5)
    }
}

@Suite struct OnrampErrorTests {
    @Test func descriptionShowsCodeAndDeveloperMessageOnly() {
        let error = OnrampError(
            code: .invalidAmount, userMessage: "The amount is not valid.", developerMessage: "Bad amount.",
            parameter: "paymentAmount")
        #expect(error.description == "OnrampError(invalid_amount, parameter: paymentAmount): Bad amount.")
        #expect(!error.description.contains(error.userMessage))
        #expect(error.code.rawValue == "invalid_amount")
    }

    @Test func contractCodesAreSpelledAsOnTheWire() {
        #expect(
            OnrampError.Code.missingMinimumIdentityVerification.rawValue
                == "crypto_onramp_missing_minimum_identity_verification")
        #expect(OnrampError.Code.missingIdentityVerification.rawValue == "crypto_onramp_missing_identity_verification")
        #expect(OnrampError.Code.missingDocumentVerification.rawValue == "crypto_onramp_missing_document_verification")
        #expect(OnrampError.Code.unsupportedCountry.rawValue == "crypto_onramp_unsupported_country")
    }
}

@Suite struct TransactionHashGeneratorTests {
    let generator = TransactionHashGenerator(random: SeededRandomSource(seed: 9))

    @Test func evmHashesAreZeroXPlus64Hex() {
        let hash = generator.hash(for: .evm)
        #expect(hash.hasPrefix("0x") && hash.count == 66)
        #expect(hash.dropFirst(2).allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func bitcoinHashesAre64Hex() {
        #expect(generator.hash(for: .bitcoin).count == 64)
    }

    @Test func solanaSignaturesDecodeTo64Bytes() {
        #expect(Base58.decode(generator.hash(for: .solana))?.count == 64)
    }

    @Test func suiDigestsAreBase58AndAptosHashesHex() {
        #expect(Base58.decode(generator.hash(for: .hex32, networkID: "sui"))?.count == 32)
        #expect(generator.hash(for: .hex32, networkID: "aptos").hasPrefix("0x"))
    }
}

@Suite struct PaymentMethodWireTests {
    @Test func mapsToTransactionsAPISpelling() {
        #expect(PaymentMethodType.ach.transactionsAPIValue == "ACH_BANK_ACCOUNT")
        #expect(PaymentMethodType.cryptoWallet.transactionsAPIValue == "CRYPTO_ACCOUNT")
        #expect(PaymentMethodType(transactionsAPIValue: "GUEST_CHECKOUT_CARD") == .card)
        #expect(PaymentMethodType(transactionsAPIValue: "RTP") == nil)
        for method in PaymentMethodType.allCases {
            #expect(PaymentMethodType(transactionsAPIValue: method.transactionsAPIValue) == method)
        }
    }
}
