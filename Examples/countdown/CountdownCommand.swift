import ArgumentParser

@main
struct CountdownCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "countdown")
  func run() throws {}
}
