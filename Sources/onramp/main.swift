import Foundation

// The `onramp` command: dispatches to subcommands. Callbacks from C libraries live in other files
// (top-level closures here would be main-actor isolated).
exit(OnrampCommand.run(Array(CommandLine.arguments.dropFirst())))
