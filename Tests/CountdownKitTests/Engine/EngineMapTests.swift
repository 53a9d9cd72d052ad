import Foundation
import TestSupport
import Testing

/// The map at the top of `CountdownEngine.swift` (how a change travels) names files, from
/// `Sources/CountdownKit`, each followed by a colon and the symbols it declares in backticks. Every file
/// must be there and declare every symbol named after it: a renamed function, a changed argument label
/// or a type moved to another file fails this test.
@Suite struct EngineMapTests {
  static let sources = packageDirectory().appendingPathComponent("Sources/CountdownKit")

  /// The map: the comment lines at the top of the file.
  static func map() throws -> String {
    let source = try String(
      contentsOf: sources.appendingPathComponent("Engine/API/CountdownEngine.swift"), encoding: .utf8)
    return source.split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { $0.isEmpty || ($0.hasPrefix("//") && !$0.hasPrefix("///")) || $0.hasPrefix("public import") }
      .map { $0.hasPrefix("//") ? String($0.dropFirst(2)) : "" }.joined(separator: "\n")
  }

  @Test func everySymbolTheMapNamesIsDeclaredInTheFileItNames() throws {
    let map = try Self.map()
    let references = try MapReference.all(in: map)
    #expect(references.count >= 35, "the map names a file for each step: \(references.map(\.file))")
    #expect(references.flatMap(\.symbols).count >= 60, "the map names what each step's file declares")
    for problem in try MapReference.problems(of: references, in: Self.sources) { Issue.record("\(problem)") }
    // Each folder of Engine/, and Board/, is a step of the map.
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: Self.sources.appendingPathComponent("Engine").path)
    for folder in folders + [".."] {
      let path = folder == ".." ? "Board/" : "Engine/\(folder)/"
      #expect(map.contains(path), "the map does not mention \(path)")
    }
    // Both routes of a board's rows, and the locks.
    let named = Set(references.filter { !$0.symbols.isEmpty }.map(\.file))
    for file in [
      "Board/CountdownBoard+Slots.swift", "Board/LiveBatches.swift", "Engine/Core/LiveColumns.swift",
      "Engine/Core/EngineCore+Live.swift", "Engine/Core/RoundedRule.swift", "Lock.swift",
    ] {
      #expect(named.contains(file), "the map does not name what \(file) declares")
    }
  }

  @Test func aRenamedSymbolOrAMovedOneFailsTheCheck() throws {
    let map = try Self.map()
    let references = try MapReference.all(in: map)
    let install = try #require(references.first { $0.file == "Engine/Driver/EngineState.swift" })
    #expect(install.symbols.contains("install(_:in:delivery:isOnMainActor:)"))
    // The map as it is passes; a lie in it does not.
    #expect(try MapReference.problems(of: [install], in: Self.sources).isEmpty)
    let lies = [
      MapReference(file: install.file, symbols: ["installSubscriber(_:in:delivery:isOnMainActor:)"]),
      MapReference(file: install.file, symbols: ["install(_:into:delivery:isOnMainActor:)"]),
      MapReference(file: install.file, symbols: ["EngineStates"]),
      MapReference(file: install.file, symbols: ["isShutDown"]),
      MapReference(file: "Engine/Driver/CountdownEngine+Driver.swift", symbols: ["EngineState"]),
      MapReference(file: "Engine/Driver/DriverState.swift", symbols: []),
    ]
    for lie in lies {
      #expect(try MapReference.problems(of: [lie], in: Self.sources).count == 1, "\(lie) must fail")
    }
  }
}

/// A file the map names and the symbols it names after it: `Folder/File.swift: `symbol`, `symbol``.
struct MapReference: CustomStringConvertible {
  var file: String
  var symbols: [String]

  var description: String { "\(file): \(symbols)" }

  static func all(in map: String) throws -> [MapReference] {
    // A path, then (optionally) a colon and backticked symbols separated by commas or "and".
    let reference = try Regex(#"((?:[A-Za-z]+/)*[A-Za-z+]+\.swift)(:(?:\s*`[^`]+`(?:,| and)?)+)?"#)
    let symbol = try Regex(#"`([^`]+)`"#)
    return map.matches(of: reference).map { match in
      let text = String(map[match.range])
      let file = String(text.prefix { $0 != ":" })
      let symbols = text.dropFirst(file.count).matches(of: symbol).map { String(text[$0.range].dropFirst().dropLast()) }
      return MapReference(file: file, symbols: symbols)
    }
  }

  /// What is wrong with `references`: files that are not there, symbols their file does not declare.
  static func problems(of references: [MapReference], in sources: URL) throws -> [String] {
    var problems: [String] = []
    for reference in references {
      let url = sources.appendingPathComponent(reference.file)
      guard let source = try? String(contentsOf: url, encoding: .utf8) else {
        problems.append("the map names \(reference.file), which is not there")
        continue
      }
      let code = SwiftDeclarations(source)
      for symbol in reference.symbols where !code.declares(symbol) {
        problems.append("the map names `\(symbol)` in \(reference.file), which does not declare it")
      }
    }
    return problems
  }
}

/// The declarations of a Swift source file, read well enough to find a type, a property, a case or a
/// function with its argument labels (comments are left out).
struct SwiftDeclarations {
  let code: String

  init(_ source: String) {
    code = source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard let comment = line.range(of: "//") else { return String(line) }
      return String(line[..<comment.lowerBound])
    }.joined(separator: "\n")
  }

  /// Whether the file declares `symbol`: `Type`, `Type.member`, `property`, `case`, `function(label:)`.
  func declares(_ symbol: String) -> Bool {
    var name = symbol
    if let open = name.firstIndex(of: "("), let dot = name[..<open].lastIndex(of: ".") {
      guard declares(String(name[..<dot])) else { return false }
      name = String(name[name.index(after: dot)...])
    } else if !name.contains("("), let dot = name.lastIndex(of: ".") {
      guard declares(String(name[..<dot])) else { return false }
      name = String(name[name.index(after: dot)...])
    }
    guard let open = name.firstIndex(of: "(") else {
      let kinds =
        name.first?.isUppercase == true ? "struct|class|enum|protocol|actor|typealias|extension" : "var|let|case"
      return code.contains(try! Regex(#"\b(?:\#(kinds))\s+\#(name)\b"#))
    }
    let labels = name[name.index(after: open)...].dropLast().split(separator: ":", omittingEmptySubsequences: true)
      .map(String.init)
    return functions(named: String(name[..<open])).contains(labels)
  }

  /// The argument labels of each declaration of function `name` (or of the initialisers, for `init`).
  func functions(named name: String) -> [[String]] {
    let head = name == "init" ? #"\binit[?!]?"# : #"\bfunc\s+\#(NSRegularExpression.escapedPattern(for: name))"#
    guard let start = try? Regex(head + #"\s*(?:<[^{]*?>)?\s*\("#) else { return [] }
    return code.matches(of: start).map { match in
      parameters(from: match.range.upperBound).map { parameter in
        let words = parameter.prefix { $0 != ":" }.split(whereSeparator: \.isWhitespace)
        return words.first.map(String.init) ?? ""
      }
    }
  }

  /// The parameters of the list that starts at `start` (just after its opening parenthesis), split at
  /// the commas outside any bracket.
  func parameters(from start: String.Index) -> [Substring] {
    var depth = 0
    var parameters: [Substring] = []
    var current = start
    var index = start
    while index < code.endIndex {
      let character = code[index]
      switch character {
      case "(", "[", "<", "{": depth += 1
      case ")" where depth == 0:
        let last = code[current..<index]
        if !last.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parameters.append(last) }
        return parameters
      case ")", "]", "}": depth -= 1
      case ">" where index > code.startIndex && code[code.index(before: index)] != "-": depth -= 1
      case "," where depth == 0:
        parameters.append(code[current..<index])
        current = code.index(after: index)
      default: break
      }
      index = code.index(after: index)
    }
    return parameters
  }
}
