import ArgumentParser

struct RingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "ring", abstract: "Not yet.")
}
