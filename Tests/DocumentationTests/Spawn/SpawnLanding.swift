// swift-format-ignore-file
// The region below is the code of Spawn.docc's landing page, byte for byte: keep the two in step
// (.ci/check-doc-blocks).
import Spawn
import Testing

@Suite struct SpawnLandingExamples {
  @Test func overview() async throws {
    // docs: Sources/Spawn/Spawn.docc/Spawn.md
    let hook = ChildCommand.shell(
      "echo \"$COUNTDOWN_TITLE is done\"",
      environment: .inherited().setting(["COUNTDOWN_TITLE": "Tea"]))  // the parent's, without PGPASSWORD
    let result = try await ChildProcess.run(hook, timeout: .seconds(30))
    print(result.termination, result.outputText)  // "exit status 0", "Tea is done\n"
    // end docs
    #expect(result.termination.description == "exit status 0" && result.outputText == "Tea is done\n")
  }
}
