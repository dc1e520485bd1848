import OnrampWire
import Testing

@Suite struct JSONParserTests {
    let parser = JSONParser()

    /// A member is found by its name, the last one when a name repeats; a canonically equivalent spelling
    /// of another length is another name, as JSON compares names.
    @Test func findsMembersByNameAsJSONComparesThem() throws {
        let value = try parser.parse(#"{"destination_currency": "usdc", "a": 1, "a": 2, "\u212Aey": "kelvin"}"#)
        #expect(value["destination_currency"] == .string("usdc"))
        #expect(value["destination_currencY"] == nil && value["destination_currenc"] == nil)
        #expect(value["a"] == .number("2"))
        #expect(value["\u{212A}ey"] == .string("kelvin"))
        #expect(value["Key"] == nil, "U+212A KELVIN SIGN is canonically equivalent to K, but not the same name")
        #expect(JSONValue.string("x")["a"] == nil)
    }

    @Test func keepsNumbersAsTheirSourceText() throws {
        let value = try parser.parse(#"{"paymentAmount": 25.10, "n": -0.5e3}"#)
        #expect(value["paymentAmount"] == .number("25.10"))
        #expect(value["n"] == .number("-0.5e3"))
    }

    @Test func keepsMemberOrderWhenWriting() throws {
        let text = #"{"z":1,"a":[true,false,null],"m":{"k":"v\n\"q\""}}"#
        #expect(try parser.parse(text).serializedString == text)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try parser.parse(#"["\u00e9\ud83d\ude00\/"]"#)
        #expect(value == .array([.string("é😀/")]))
    }

    @Test(arguments: [
        "", "{", #"{"a":}"#, "[1,]", "01", "1.", "-", #"{"a" 1}"#, "tru", #""\ud800""#, "[1] x", "\"a\nb\"",
        #"{"a":1,}"#, "NaN",
    ])
    func rejectsMalformedDocuments(_ text: String) {
        #expect(throws: JSONParser.ParseError.self) { try parser.parse(text) }
    }

    @Test func limitsNestingDepth() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: JSONParser.ParseError.self) { try parser.parse(deep) }
        #expect(throws: Never.self) { try JSONParser(maximumDepth: 64).parse(deep) }
    }

    @Test func escapesHTMLSensitiveCharactersWhenWriting() {
        #expect(JSONValue.string("<a&b>").serializedString == #""\u003ca\u0026b\u003e""#)
    }

    /// The writer finds runs without escapes eight bytes at a time: every character that needs one, at
    /// every offset of a word and of the tail, and random mixes of them with ASCII and multi-byte text,
    /// are written as a character-by-character reference writes them, and read back.
    @Test func escapesAtEveryOffsetAsACharacterByCharacterWriter() throws {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "<", ">", "&", "\u{00}"..."\u{1F}":
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let special: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{00}", "\u{01}", "\u{1F}", "<", ">", "&"]
        var texts: [String] = []
        for character in special {
            for offset in 0..<18 {
                var text = Array(repeating: Character("a"), count: 18)
                text[offset] = character
                texts.append(String(text))
            }
        }
        let pool: [Character] = special + ["a", "Z", "0", " ", "~", "\u{7F}", "é", "€", "😀", "\u{80}", "/", "'"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let length = Int.random(in: 0...64, using: &random)
            texts.append(String((0..<length).map { _ in pool.randomElement(using: &random)! }))
        }
        for text in texts {
            let written = JSONValue.string(text).serializedString
            #expect(written == reference(text), "\(Array(text.utf8))")
            #expect(try parser.parse(written) == .string(text))
        }
    }

    /// Unescaped runs between escapes, at both ends and in multi-byte text, written and read back. The
    /// expected text is Python's `json.dumps(s, ensure_ascii=False)` with `<`, `>`, `&` as `\u00XX`.
    @Test func writesAndReadsRunsBetweenEscapes() throws {
        let text = "plain text, then \"quoted\" and \\ back\nslash\ttab\u{01} <tag>&amp; é😀 end"
        let expected = #""plain text, then \"quoted\" and \\ back\nslash\ttab\u0001 \u003ctag\u003e\u0026amp; é😀 end""#
        #expect(JSONValue.string(text).serializedString == expected)
        #expect(try parser.parse(expected) == .string(text))
        #expect(
            try parser.parse(#"["no escape at all", "", "\"", "x\\"]"#)
                == .array(["no escape at all", "", "\"", "x\\"]))
    }

    @Test func refusesInvalidUTF8InAStringWithOrWithoutEscapes() {
        for bytes in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22]] as [[UInt8]] {
            #expect(throws: JSONParser.ParseError.self) { try parser.parse(bytes) }
        }
    }
}

@Suite struct FormDecoderTests {
    let decoder = FormDecoder()

    @Test func nestsBrackets() throws {
        let value = try decoder.decode(
            "mandate_data%5Bcustomer_acceptance%5D%5Btype%5D=online&mandate_data[customer_acceptance][online][ip_address]=1.2.3.4"
        )
        #expect(value["mandate_data"]?["customer_acceptance"]?["type"] == .string("online"))
        #expect(value["mandate_data"]?["customer_acceptance"]?["online"]?["ip_address"] == .string("1.2.3.4"))
    }

    @Test func buildsListsFromEmptyAndIndexedBrackets() throws {
        #expect(try decoder.decode("n[]=base&n[]=solana")["n"] == .array(["base", "solana"]))
        #expect(try decoder.decode("n[1]=solana&n[0]=base")["n"] == .array(["base", "solana"]))
        #expect(
            try decoder.decode("items[0][price]=1&items[1][price]=2")["items"]
                == .array([["price": "1"], ["price": "2"]]))
    }

    @Test func decodesPlusAndPercentEscapes() throws {
        let value = try decoder.decode("name=Jane+Doe&email=a%40b.co&empty=")
        #expect(value == ["name": "Jane Doe", "email": "a@b.co", "empty": ""])
    }

    /// The WHATWG form parser splits on the bytes `&` and `=`, not on characters: a combining mark
    /// after `&` starts the next name instead of joining the `&` into one character.
    @Test func splitsOnBytesAndKeepsMultiByteTextWhole() throws {
        #expect(try decoder.decode("a=x&\u{301}b=y") == ["a": "x", "\u{301}b": "y"])
        let nested = try decoder.decode("ключ[вложенный]=значение+ü&emoji=%F0%9F%91%8D")
        #expect(nested["ключ"]?["вложенный"] == .string("значение ü"))
        #expect(nested["emoji"] == .string("👍"))
        #expect(try decoder.pairs("&&a==b&c").map { [$0.0, $0.1] } == [["a", "=b"], ["c", ""]])
    }

    @Test(arguments: ["a[b=1", "a]=1", "=1", "a=%zz", "a=1&a[b]=2", "a[b]=1&a=2", "a[][b]=1", "l[0]=1&l[x]=2"])
    func rejectsMalformedForms(_ text: String) {
        #expect(throws: FormDecoder.DecodeError.self) { try decoder.decode(text) }
    }

    @Test func limitsPairsAndDepth() {
        let many = (0..<1001).map { "k\($0)=v" }.joined(separator: "&")
        #expect(throws: FormDecoder.DecodeError.self) { try decoder.decode(many) }
        #expect(throws: FormDecoder.DecodeError.self) { try decoder.decode("a[1][2][3][4][5][6][7][8][9]=x") }
    }
}
