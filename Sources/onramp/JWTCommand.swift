import Foundation
import OnrampCrypto

/// `onramp jwt METHOD URL`: a CDP API key JWT for one request, as a partner's backend signs it (the cdp-sdk's
/// `generate_jwt`): for `curl -H "Authorization: Bearer $(onramp jwt GET $URL)" $URL`.
enum JWTCommand {
    static let usage = """
        Usage: onramp jwt METHOD URL [--key-id ID] [--key-secret SECRET] [--expires-in SECONDS]

        Prints a CDP API key JWT for METHOD URL (its uris name the URL's host and path; good for 120 s).
        The key comes from --key-id/--key-secret, or CDP_API_KEY_ID/CDP_API_KEY_SECRET (what
        `onramp project create --env` exports).
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--key-id", "--key-secret", "--expires-in"], flagOptions: ["--help"])
            guard args.positional.count == 2, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let environment = ProcessInfo.processInfo.environment
            guard let id = args.value("--key-id") ?? environment["CDP_API_KEY_ID"],
                let secret = args.value("--key-secret") ?? environment["CDP_API_KEY_SECRET"]
            else {
                throw Arguments.UsageError(
                    description:
                        "no key: pass --key-id and --key-secret, or export CDP_API_KEY_ID and CDP_API_KEY_SECRET")
            }
            guard let url = URLComponents(string: args.positional[1]), let host = url.host, !host.isEmpty else {
                throw Arguments.UsageError(
                    description: "URL must be absolute, such as http://127.0.0.1:8080/onramp/v1/…")
            }
            let authority = url.port.map { "\(host):\($0)" } ?? host
            let expiresIn = try args.integer("--expires-in", default: 120, in: 1...3600)
            let jwt = try CDPAPIKey(id: id, secret: secret).jwt(
                method: args.positional[0].uppercased(), host: authority,
                path: url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath, at: Date(),
                expiresIn: TimeInterval(expiresIn))
            print(jwt)
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp jwt: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp jwt: \(error)")
            return 1
        }
    }
}
