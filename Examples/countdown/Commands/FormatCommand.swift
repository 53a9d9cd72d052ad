import ArgumentParser

struct FormatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "format", abstract: "Not yet.")
}
