import Foundation

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "appattest" {
    exit(AppAttestCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
print("onramp")
