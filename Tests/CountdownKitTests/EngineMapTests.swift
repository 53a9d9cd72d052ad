import Foundation
import Testing

/// The map at the top of `CountdownEngine.swift` (how a change travels) names the file of each step:
/// it must not name a file that is not there.
@Suite struct EngineMapTests {
  static let engine = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/CountdownKit/Engine")

  @Test func everyFileTheMapNamesExists() throws {
    let source = try String(
      contentsOf: Self.engine.appendingPathComponent("API/CountdownEngine.swift"), encoding: .utf8)
    let map = source.split(separator: "\n").prefix { $0.hasPrefix("//") || $0.hasPrefix("public import") }
      .joined(separator: "\n")
    let named = try Regex(#"[A-Za-z]+/[A-Za-z+]+\.swift"#)
    let files = map.matches(of: named).map { String(map[$0.range]) }
    #expect(files.count >= 12, "the map names a file for each step: \(files)")
    for file in Set(files) {
      let exists = FileManager.default.fileExists(atPath: Self.engine.appendingPathComponent(file).path)
      #expect(exists, "the map names Engine/\(file), which is not there")
    }
    // Each folder of Engine/ is a step of the map.
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.engine.path)
    for folder in folders { #expect(map.contains("\(folder)/"), "the map does not mention Engine/\(folder)") }
  }
}
