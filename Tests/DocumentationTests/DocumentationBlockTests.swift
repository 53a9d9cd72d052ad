import Foundation
import Testing

/// Every ```swift block of README.md and the DocC catalogs is a region of a compiled file here (the
/// rule `.ci/check-doc-blocks` enforces, which also compiles the manifest blocks).
@Suite struct DocumentationBlockTests {
  /// The repository's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  struct Block: CustomStringConvertible {
    let document: String
    let line: Int
    let text: String
    var description: String { "\(document):\(line)" }
  }

  struct Region {
    let document: String
    let file: String
    let line: Int
    let text: String
    let fileLines: [String]
  }

  static func read(_ path: String) throws -> [String] {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
  }

  static func files(under directory: String, suffix: String) -> [String] {
    let base = root.appendingPathComponent(directory)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.map { "\(directory)/\($0)" }.sorted()
  }

  static func documents() -> [String] {
    let catalogs = files(under: "Sources", suffix: ".md").filter { path in
      let parts = path.split(separator: "/")
      return parts.count >= 3 && parts[2].hasSuffix(".docc")
    }
    return ["README.md"] + catalogs
  }

  static func blocks() throws -> [Block] {
    var blocks: [Block] = []
    for document in documents() {
      let lines = try read(document)
      var index = 0
      while index < lines.count {
        let line = lines[index]
        if line.trimmingCharacters(in: .whitespaces) == "```swift" {
          let indent = line.prefix { $0 == " " }.count
          var end = index + 1
          while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
          let body = lines[(index + 1)..<end].map { trimmedRight(String($0.dropFirst(min(indent, $0.count)))) }
          blocks.append(Block(document: document, line: index + 1, text: body.joined(separator: "\n")))
          index = end
        }
        index += 1
      }
    }
    return blocks
  }

  static func trimmedRight(_ line: String) -> String {
    var line = Substring(line)
    while line.last == " " { line = line.dropLast() }
    return String(line)
  }

  static func regions() throws -> [Region] {
    var regions: [Region] = []
    for file in files(under: "Tests/DocumentationTests", suffix: ".swift") {
      let lines = try read(file)
      var index = 0
      while index < lines.count {
        let stripped = lines[index].trimmingCharacters(in: .whitespaces)
        if stripped.hasPrefix("// docs: ") {
          let document = String(stripped.dropFirst("// docs: ".count))
          var end = index + 1
          while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "// end docs" { end += 1 }
          let body = Array(lines[(index + 1)..<end])
          let cut =
            body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }
            .min() ?? 0
          let text = body.map {
            $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : trimmedRight(String($0.dropFirst(cut)))
          }
          regions.append(
            Region(
              document: document, file: file, line: index + 1, text: text.joined(separator: "\n"), fileLines: lines))
          index = end
        }
        index += 1
      }
    }
    return regions
  }

  /// A block's leading `import` lines, and the rest.
  static func splitImports(_ text: String) -> (imports: [String], body: String) {
    var lines = text.components(separatedBy: "\n")[...]
    var imports: [String] = []
    while let first = lines.first, first.hasPrefix("import ") || (!imports.isEmpty && first.isEmpty) {
      if !first.isEmpty { imports.append(first) }
      lines = lines.dropFirst()
    }
    return (imports, lines.joined(separator: "\n"))
  }

  @Test func everySwiftBlockIsCompiledAndEveryRegionIsUsed() throws {
    let blocks = try Self.blocks()
    let regions = try Self.regions()
    let manifests = Set(
      try Self.files(under: "Tests/DocumentationTests/Manifests", suffix: "Package.swift").map {
        try Self.read($0).joined(separator: "\n").trimmingCharacters(in: .newlines)
      })
    var used = Set<Int>()
    for block in blocks {
      if block.text.hasPrefix("// swift-tools-version") {
        #expect(manifests.contains(block.text), "\(block): a manifest block must be a file under Manifests/")
        continue
      }
      let (imports, body) = Self.splitImports(block.text)
      let matches = regions.indices.filter { index in
        let region = regions[index]
        return region.document == block.document && region.text == body
          && imports.allSatisfy { line in region.fileLines.contains { $0.trimmingCharacters(in: .whitespaces) == line }
          }
      }
      #expect(
        !matches.isEmpty, "\(block) is not compiled: no identical region in Tests/DocumentationTests\n\(block.text)")
      used.formUnion(matches)
    }
    for (index, region) in regions.enumerated() where !used.contains(index) {
      Issue.record("\(region.file):\(region.line): region for \(region.document) matches no block of it")
    }
    #expect(blocks.count > 40)
  }

  /// README.md says how many blocks are compiled; keep it true.
  @Test func readmeStatesTheNumberOfCompiledBlocks() throws {
    let count = try Self.blocks().count
    let readme = try Self.read("README.md").joined(separator: "\n")
    #expect(readme.contains("All \(count) Swift code blocks"), "README.md should say: All \(count) Swift code blocks")
  }
}
