import Foundation
import OnrampCore

/// `onramp catalogue`: the catalogue as JSON (a starting point for `serve --catalogue`), or with `--country`
/// what it serves a buyer there, as the console's availability page shows it.
enum CatalogueCommand {
    static let usage = """
        Usage: onramp catalogue [--country CC [--subdivision SS]] [--catalogue FILE]

        Without --country, prints the catalogue (assets, networks, prices, fees) as JSON.
        With --country (ISO 3166-1, e.g. US) and perhaps --subdivision (e.g. NY), prints what is served there:
        the payment methods, their limits in each fiat currency, the assets with their networks, and whether
        Stripe's Embedded onramp serves the region (JSON; the console's /console/availability page shows the same).

        Options:
          --catalogue FILE   Look in this catalogue instead of the built-in one (as `serve --catalogue` takes it)
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--country", "--subdivision", "--catalogue"], flagOptions: ["--help"])
            guard args.positional.isEmpty, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let catalogue =
                try args.value("--catalogue").map {
                    try Catalogue(jsonData: Data(contentsOf: URL(fileURLWithPath: $0)))
                } ?? .standard
            guard let country = args.value("--country") else {
                guard args.value("--subdivision") == nil else {
                    throw Arguments.UsageError(description: "--subdivision needs --country")
                }
                print(String(decoding: try catalogue.jsonData(), as: UTF8.self))
                return 0
            }
            let availability = try catalogue.availability(country: country, subdivision: args.value("--subdivision"))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(availability), as: UTF8.self))
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp catalogue: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp catalogue: \(error)")
            return 1
        }
    }
}
