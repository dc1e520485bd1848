import HTTPServer
import OnrampTestSupport
import Testing

@Suite(.blocking) struct MultipartFormDataTests {
    static func body(_ boundary: String, _ parts: [String]) -> [UInt8] {
        Array((parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + "--\(boundary)--\r\n").utf8)
    }

    @Test func splitsFieldsAndAFileAsStripeCoreSendsThem() throws {
        let body = Self.body(
            "XyZ",
            [
                "Content-Disposition: form-data; name=\"purpose\"\r\n\r\nidentity_private",
                "Content-Disposition: form-data; name=\"owned_by\"\r\n\r\nvs_1",
                "Content-Disposition: form-data; name=\"file\"; filename=\"vs_1_front.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u{1}\r\n\u{2}",
            ])
        let form = try MultipartFormData(body: body, contentType: "multipart/form-data; boundary=XyZ")
        #expect(form.parts.map(\.name) == ["purpose", "owned_by", "file"])
        #expect(form.part("purpose")?.text == "identity_private")
        let file = try #require(form.part("file"))
        #expect(file.filename == "vs_1_front.jpg" && file.contentType == "image/jpeg")
        #expect(file.body == [1, 13, 10, 2], "a CRLF inside the file is kept")
    }

    @Test func refusesWhatIsNotMultipartOrHasTooManyParts() {
        #expect(throws: HTTPError.self) {
            try MultipartFormData(body: [], contentType: "application/json")
        }
        #expect(throws: HTTPError.self) {
            try MultipartFormData(body: Array("no delimiter".utf8), contentType: "multipart/form-data; boundary=a")
        }
        let many = Self.body("b", Array(repeating: "Content-Disposition: form-data; name=\"x\"\r\n\r\n1", count: 17))
        #expect(throws: HTTPError.self) {
            try MultipartFormData(body: many, contentType: "multipart/form-data; boundary=b")
        }
        let nameless = Self.body("c", ["Content-Type: text/plain\r\n\r\n1"])
        #expect(throws: HTTPError.self) {
            try MultipartFormData(body: nameless, contentType: "multipart/form-data; boundary=c")
        }
    }
}
