// Checks the lists of NameClash.swift: Apple's names beside CountdownKit are Apple's, ours are ours,
// and the list of ours is every public top-level name of CountdownCore, CountdownKit and
// CountdownTesting.
#if os(Linux)
  import Foundation
  import Testing

  @MainActor @Suite struct NameClashTests {
    @Test func applesNamesAreApples() async {
      for (type, module) in NameClash.apples {
        #expect(Self.module(of: type) == module, "\(String(reflecting: type)) is not \(module)'s")
      }
      #expect(await NameClash.entriesOfATimeline() == 1, "WidgetKit's Timeline, made and read")
    }

    @Test func ourNamesAreOurs() {
      for (name, (type, module)) in NameClash.ours {
        #expect(Self.module(of: type) == module, "\(name) is \(String(reflecting: type)), not \(module)'s")
      }
    }

    /// The list of ours is every public top-level declaration of the three modules' sources.
    @Test func theListHasEveryPublicName() throws {
      let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
      var declared: [String: String] = [:]
      for module in ["CountdownCore", "CountdownKit", "CountdownTesting"] {
        for name in try Self.publicTopLevelNames(in: sources.appendingPathComponent(module)) {
          declared[name] = module
        }
      }
      #expect(declared.count >= 40, "found \(declared.count) names: the scan of the sources is broken")
      for (name, module) in declared.sorted(by: { $0.key < $1.key }) where NameClash.ours[name]?.module != module {
        Issue.record("\(module) declares public \(name): add it to NameClash.ours, beside Apple's names")
      }
      for name in NameClash.ours.keys.sorted() where declared[name] == nil {
        Issue.record("NameClash.ours lists \(name), which no module declares any more")
      }
    }

    /// The module a type comes from, as the runtime names it (`any P` for a protocol).
    static func module(of type: Any.Type) -> String {
      var name = String(reflecting: type)
      if name.hasPrefix("any ") { name.removeFirst(4) }
      return String(name.prefix { $0 != "." })
    }

    /// The public types, functions and values declared at the top level (not inside a type or an
    /// extension) of the Swift files under `folder`: braces are counted outside comments.
    static func publicTopLevelNames(in folder: URL) throws -> Set<String> {
      let declaration = try Regex(
        #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias|func|var|let)\s+(\w+)"#
      )
      var names: Set<String> = []
      let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
      while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "swift" else { continue }
        var depth = 0
        let lines = try String(contentsOf: file, encoding: .utf8).split(
          separator: "\n", omittingEmptySubsequences: false)
        for line in lines where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          if depth == 0, let match = try declaration.firstMatch(in: String(line)), let name = match.output[1].substring
          {
            names.insert(String(name))
          }
          depth += line.count { $0 == "{" } - line.count { $0 == "}" }
        }
      }
      return names
    }
  }
#endif
