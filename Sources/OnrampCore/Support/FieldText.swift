/// The one rule every text field on the wire obeys before it is used or stored: a length limit in
/// UTF-8 bytes (not characters: `"e"` and 20,000 combining marks is one `Character`), and no C0 control
/// characters or DEL, NUL among them (PostgreSQL cannot store NUL, and a control in a redirect or a
/// reference would end up in headers, logs and pages).
public enum FieldText {
    /// What is wrong with a text.
    public enum Problem: Sendable, Equatable {
        /// More UTF-8 bytes than allowed.
        case tooLong(maxBytes: Int)
        /// A control character (U+0000–U+001F or U+007F).
        case controlCharacter
    }

    /// The problem with `text` under a limit of `maxBytes`, or `nil` when it may be used. Free text
    /// (`allowingLineBreaks`: descriptions, metadata values) may also hold tab, line feed and carriage
    /// return; NUL and the other controls never.
    public static func problem(in text: String, maxBytes: Int, allowingLineBreaks: Bool = false) -> Problem? {
        var count = 0
        for byte in text.utf8 {
            count += 1
            if count > maxBytes { return .tooLong(maxBytes: maxBytes) }
            if byte < 0x20 || byte == 0x7F {
                guard allowingLineBreaks, byte == 0x09 || byte == 0x0A || byte == 0x0D else { return .controlCharacter }
            }
        }
        return nil
    }
}
