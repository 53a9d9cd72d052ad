internal import Foundation

extension TimeSpecParser {
  /// A zone: `Z`, `UTC`, `GMT`, `UTC+2`, an offset `±HH[[:]MM]` (to ±18:00), an abbreviation of
  /// ``ZoneAbbreviations`` (`EST`), or a tz database name with a slash (`Europe/Berlin`, any case).
  /// `nil` when the next word is not one.
  mutating func zoneForm() throws(Problem) -> WallClockSpec.Zone? {
    let start = scanner.index
    if scanner.skipWord("z") { return .offset(seconds: 0) }
    let universal = scanner.attempt { scanner -> Bool? in
      scanner.skip("utc") || scanner.skip("gmt") ? true : nil
    }
    if universal != nil {
      if let offset = UTCOffset.read(&scanner) { return .offset(seconds: try Self.valid(offset)) }
      if !scanner.nextIsLetter { return .offset(seconds: 0) }
      scanner.rewind(to: start)
    }
    if let offset = UTCOffset.read(&scanner) { return .offset(seconds: try Self.valid(offset)) }
    guard scanner.nextIsLetter else { return nil }
    let name = scanner.zoneName()
    let range = start..<scanner.index
    if name.contains("/") {
      if let identifier = Self.zoneIdentifiers[name] ?? TimeZone(identifier: typed(range))?.identifier {
        return .identifier(identifier)
      }
      throw .unknownZone(typed(range), suggestion: Self.nearestZone(to: name).map { typed(replacing: range, with: $0) })
    }
    let meanings = ZoneAbbreviations.meanings(of: name)
    switch meanings.count {
    case 0:
      scanner.rewind(to: start)
      return nil
    case 1:
      return .offset(seconds: meanings[0].offset)
    default:
      throw .ambiguousZone(typed(range), meanings, suggestion: typed(replacing: range, with: meanings[0].example))
    }
  }

  /// The known zone name nearest to `name` (lowercase), within three edits.
  private static func nearestZone(to name: String) -> String? {
    var best: (identifier: String, distance: Int)?
    for (lowercase, identifier) in zoneIdentifiers {
      guard let distance = distance(name, lowercase, limit: 3) else { continue }
      if let current = best,
        current.distance < distance || (current.distance == distance && current.identifier < identifier)
      {
        continue
      }
      best = (identifier, distance)
    }
    return best?.identifier
  }

  /// The offset in seconds, or what is wrong with it.
  private static func valid(_ offset: UTCOffset) throws(Problem) -> Int {
    guard offset.minutes < 60 else {
      throw .outOfRange("offset minutes \(offset.minutes) is not in 0...59", suggestion: nil)
    }
    guard offset.isValid else { throw .offsetTooLarge(offset.text) }
    return offset.seconds
  }

  /// The tz database's zone names this system knows, by their lowercase spelling.
  static let zoneIdentifiers: [String: String] = Dictionary(
    TimeZone.knownTimeZoneIdentifiers.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
}

extension ASCIIScanner {
  /// A zone name: letters, then letters, digits and `/ _ - +` (`america/argentina/buenos_aires`,
  /// `etc/gmt+5`); an abbreviation is letters only.
  fileprivate mutating func zoneName() -> String {
    let start = index
    while let byte = peek,
      Self.isLetter(byte) || (index > start && (Self.isDigit(byte) || "/_-+".utf8.contains(byte)))
    {
      _ = skip(byte)
    }
    var name = String(decoding: bytes[start..<index], as: UTF8.self)
    if !name.contains("/"), let letters = name.firstIndex(where: { !$0.isLetter }) {
      // `est-5` is not a zone name: keep the letters only, for the abbreviation.
      rewind(to: start + name.distance(from: name.startIndex, to: letters))
      name = String(name[..<letters])
    }
    return name
  }
}
