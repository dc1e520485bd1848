/// A command line split into positional arguments, `--name value` / `--name=value` options (which
/// may repeat) and `--flag` switches. Unknown options are usage errors.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// A usage mistake, printed with the command's help.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `arguments`; `valueOptions` take a value, `flagOptions` do not.
    init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String> = []) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positional.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flagOptions.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inlineValue {
                    options[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                    options[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw UsageError(description: "unknown option \(name)")
            }
        }
    }

    /// The last value of an option.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option within `range`.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(description: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }
}
