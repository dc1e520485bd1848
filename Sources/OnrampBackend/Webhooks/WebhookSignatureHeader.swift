import OnrampClient

/// A parsed `t=…,h=…,v1=…[,v1=…][,v0=…]` signature header (both schemes use this layout).
struct WebhookSignatureHeader: Sendable {
    /// The signing time, Unix seconds.
    let timestamp: Int64
    /// The space-separated header names of the CDP scheme (`h`), empty for Stripe.
    let signedHeaders: [String]
    /// Every `v1` signature, decoded from hex (several during secret rotation).
    let v1: [[UInt8]]

    /// Parses `text`; unknown keys (such as `v0`) are ignored, `v1` values that are not hex are skipped.
    init(_ text: String) throws(WebhookVerificationError) {
        var timestamp: Int64?
        var signedHeaders: [String] = []
        var v1: [[UInt8]] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: " ")
            let value = String(parts[1]).trimmingCharacters(in: " ")
            switch key {
            case "t": timestamp = Int64(value)
            case "h": signedHeaders = value.split(separator: " ").map { $0.lowercased() }
            case "v1": if let bytes = Self.hex(value), bytes.count == 32 { v1.append(bytes) }
            default: continue
            }
        }
        guard let timestamp else { throw WebhookVerificationError(.malformedHeader, "The header has no timestamp t.") }
        guard !v1.isEmpty else { throw WebhookVerificationError(.malformedHeader, "The header has no v1 signature.") }
        self.timestamp = timestamp
        self.signedHeaders = signedHeaders
        self.v1 = v1
    }

    private static func hex(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var slice = Substring(self)
        while slice.first == character { slice.removeFirst() }
        while slice.last == character { slice.removeLast() }
        return String(slice)
    }
}
