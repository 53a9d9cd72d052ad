import Foundation
import TestSupport
import Testing

@testable import CountdownCommandLine

/// The table of zone abbreviations against Foundation's tz data and its own abbreviation dictionary.
@Suite("Zone abbreviations")
struct ZoneAbbreviationTests {
  /// The 15th of each month of 2026 at noon UTC: every offset a zone has in a year.
  static let year: [Date] = (1...12).compactMap { month in
    try? Date.ISO8601FormatStyle().parse("2026-\(month < 10 ? "0" : "")\(month)-15T12:00:00Z")
  }

  static func offsets(of identifier: String) -> Set<Int> {
    guard let zone = TimeZone(identifier: identifier) else { return [] }
    return Set(year.map { zone.secondsFromGMT(for: $0) })
  }

  @Test("Every meaning's example zone has that offset at some time of the year")
  func offsetsAgreeWithTzData() {
    #expect(ZoneAbbreviations.all.count >= 50)
    for abbreviation in ZoneAbbreviations.all {
      for meaning in ZoneAbbreviations.meanings(of: abbreviation) {
        let offsets = Self.offsets(of: meaning.example)
        #expect(!offsets.isEmpty, "\(meaning.example) is not a zone Foundation knows")
        #expect(offsets.contains(meaning.offset), "\(abbreviation): \(meaning) but \(meaning.example) has \(offsets)")
      }
    }
  }

  @Test("Foundation's abbreviation dictionary names a zone with one of the table's offsets")
  func foundationAgrees() {
    // Foundation's dictionary (an old table of Apple's) maps WIT, Eastern Indonesia Time (+09:00,
    // Asia/Jayapura), to Asia/Jakarta (+07:00, WIB).
    let knownDisagreements: Set = ["wit"]
    var compared = 0
    for (abbreviation, identifier) in TimeZone.abbreviationDictionary {
      let meanings = ZoneAbbreviations.meanings(of: abbreviation.lowercased())
      guard !meanings.isEmpty, !knownDisagreements.contains(abbreviation.lowercased()) else { continue }
      compared += 1
      let offsets = Self.offsets(of: identifier)
      #expect(
        meanings.contains { offsets.contains($0.offset) },
        "\(abbreviation): Foundation says \(identifier) (\(offsets)), the table \(meanings.map(\.offset))")
    }
    #expect(compared >= 40, "compared \(compared) abbreviations")
  }

  @Test("The ambiguous ones are the ones help and README name")
  func ambiguous() throws {
    #expect(ZoneAbbreviations.ambiguousList == "AST, BST, CDT, CST, GST, IST and SST")
    let readme = try String(
      contentsOf: packageDirectory().appending(path: "README.md"), encoding: .utf8)
    #expect(readme.replacing("\n", with: " ").contains(ZoneAbbreviations.ambiguousList))
  }
}
