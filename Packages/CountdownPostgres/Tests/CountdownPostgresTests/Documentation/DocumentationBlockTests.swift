import Foundation
import Testing

/// Every ```swift block of this package's DocC catalog is a region of ArticleExamples.swift (which the
/// build compiles), and every region is a block: the rule `.ci/check-doc-blocks` keeps for the root package.
@Suite("The catalog's Swift blocks are compiled")
struct DocumentationBlockTests {
  static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The ```swift blocks of each Markdown file of the catalog, by file name.
  static func blocks() throws -> [(document: String, text: String)] {
    let catalog = package.appending(path: "Sources/CountdownPostgres/CountdownPostgres.docc")
    var blocks: [(String, String)] = []
    let files = FileManager.default.enumerator(at: catalog, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "md" else { continue }
      var current: [String]?
      for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      {
        if current == nil, line == "```swift" {
          current = []
        } else if let lines = current, line == "```" {
          blocks.append((url.lastPathComponent, lines.joined(separator: "\n")))
          current = nil
        } else if current != nil {
          current?.append(String(line))
        }
      }
    }
    return blocks
  }

  /// The marked regions of ArticleExamples.swift, their common indentation removed.
  static func regions() throws -> [(document: String, text: String)] {
    let source = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "ArticleExamples.swift"),
      encoding: .utf8)
    var regions: [(String, String)] = []
    var current: (document: String, lines: [Substring])?
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("// docs: ") {
        current = (String(trimmed.dropFirst("// docs: ".count)), [])
      } else if trimmed == "// end docs", let region = current {
        let indent = region.lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        regions.append((region.document, region.lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n")))
        current = nil
      } else if current != nil {
        current?.lines.append(line)
      }
    }
    return regions
  }

  @Test func everyBlockIsCompiledAndEveryRegionIsABlock() throws {
    let blocks = try Self.blocks()
    let regions = try Self.regions()
    #expect(blocks.count == 3)
    for block in blocks {
      #expect(regions.contains { $0 == block }, "not compiled: a block of \(block.document):\n\(block.text)")
    }
    for region in regions {
      #expect(blocks.contains { $0 == region }, "stale region for \(region.document):\n\(region.text)")
    }
  }
}
