/// Time-zone abbreviations, each a fixed offset from UTC: `18:00 EST` is 18:00 at −05:00 all year,
/// even in summer, when New York is on EDT (for the time in a place, name its zone: `18:00
/// America/New_York`).
///
/// A table, not Foundation's `TimeZone(abbreviation:)`: Foundation maps `EST` to America/New_York,
/// whose offset is −04:00 in summer, and on Linux it cannot tell a standard abbreviation from a
/// daylight one, nor say that `IST` is used in India, Ireland and Israel. The tests check every
/// entry against Foundation's tz data: the zone named as an example has the offset at some time of
/// the year, and Foundation's own abbreviation dictionary agrees (`ZoneAbbreviationTests`).
enum ZoneAbbreviations {
  /// One meaning of an abbreviation.
  struct Meaning: Equatable, Sendable {
    /// The offset from UTC, in seconds.
    var offset: Int
    /// What it stands for: "North American Eastern Standard Time".
    var name: String
    /// A tz database zone that uses it.
    var example: String
  }

  /// The meanings of `abbreviation` (lowercase ASCII); empty when it is not in the table, several
  /// when it is ambiguous (`ist`, `cst`, `bst`).
  static func meanings(of abbreviation: String) -> [Meaning] {
    table[abbreviation] ?? []
  }

  /// Every abbreviation in the table (lowercase), sorted.
  static var all: [String] { table.keys.sorted() }

  /// The abbreviations with several meanings, in capitals: "AST, BST, CDT, CST, GST, IST and SST".
  static var ambiguousList: String {
    let names = all.filter { meanings(of: $0).count > 1 }.map { $0.uppercased() }
    return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " and " : "") + (names.last ?? "")
  }

  private static func meaning(_ hours: Int, _ minutes: Int, _ name: String, _ example: String) -> Meaning {
    Meaning(offset: hours * 3_600 + (hours < 0 ? -minutes : minutes) * 60, name: name, example: example)
  }

  private static func meaning(_ hours: Int, _ name: String, _ example: String) -> Meaning {
    meaning(hours, 0, name, example)
  }

  private static let table: [String: [Meaning]] = [
    "utc": [meaning(0, "Coordinated Universal Time", "UTC")],
    "gmt": [meaning(0, "Greenwich Mean Time", "Europe/London")],
    "wet": [meaning(0, "Western European Time", "Europe/Lisbon")],
    "west": [meaning(1, "Western European Summer Time", "Europe/Lisbon")],
    "cet": [meaning(1, "Central European Time", "Europe/Paris")],
    "cest": [meaning(2, "Central European Summer Time", "Europe/Paris")],
    "eet": [meaning(2, "Eastern European Time", "Europe/Athens")],
    "eest": [meaning(3, "Eastern European Summer Time", "Europe/Athens")],
    "msk": [meaning(3, "Moscow Time", "Europe/Moscow")],
    "trt": [meaning(3, "Turkey Time", "Europe/Istanbul")],
    "wat": [meaning(1, "West Africa Time", "Africa/Lagos")],
    "cat": [meaning(2, "Central Africa Time", "Africa/Maputo")],
    "sast": [meaning(2, "South Africa Standard Time", "Africa/Johannesburg")],
    "eat": [meaning(3, "East Africa Time", "Africa/Nairobi")],
    "irst": [meaning(3, 30, "Iran Standard Time", "Asia/Tehran")],
    "idt": [meaning(3, "Israel Daylight Time", "Asia/Jerusalem")],
    "pkt": [meaning(5, "Pakistan Standard Time", "Asia/Karachi")],
    "npt": [meaning(5, 45, "Nepal Time", "Asia/Kathmandu")],
    "ict": [meaning(7, "Indochina Time", "Asia/Bangkok")],
    "wib": [meaning(7, "Western Indonesia Time", "Asia/Jakarta")],
    "wita": [meaning(8, "Central Indonesia Time", "Asia/Makassar")],
    "wit": [meaning(9, "Eastern Indonesia Time", "Asia/Jayapura")],
    "hkt": [meaning(8, "Hong Kong Time", "Asia/Hong_Kong")],
    "sgt": [meaning(8, "Singapore Time", "Asia/Singapore")],
    "pht": [meaning(8, "Philippine Time", "Asia/Manila")],
    "awst": [meaning(8, "Australian Western Standard Time", "Australia/Perth")],
    "jst": [meaning(9, "Japan Standard Time", "Asia/Tokyo")],
    "kst": [meaning(9, "Korea Standard Time", "Asia/Seoul")],
    "acst": [meaning(9, 30, "Australian Central Standard Time", "Australia/Adelaide")],
    "acdt": [meaning(10, 30, "Australian Central Daylight Time", "Australia/Adelaide")],
    "aest": [meaning(10, "Australian Eastern Standard Time", "Australia/Sydney")],
    "aedt": [meaning(11, "Australian Eastern Daylight Time", "Australia/Sydney")],
    "nzst": [meaning(12, "New Zealand Standard Time", "Pacific/Auckland")],
    "nzdt": [meaning(13, "New Zealand Daylight Time", "Pacific/Auckland")],
    "hst": [meaning(-10, "Hawaii Standard Time", "Pacific/Honolulu")],
    "akst": [meaning(-9, "Alaska Standard Time", "America/Anchorage")],
    "akdt": [meaning(-8, "Alaska Daylight Time", "America/Anchorage")],
    "pst": [meaning(-8, "North American Pacific Standard Time", "America/Los_Angeles")],
    "pdt": [meaning(-7, "North American Pacific Daylight Time", "America/Los_Angeles")],
    "mst": [meaning(-7, "North American Mountain Standard Time", "America/Denver")],
    "mdt": [meaning(-6, "North American Mountain Daylight Time", "America/Denver")],
    "est": [meaning(-5, "North American Eastern Standard Time", "America/New_York")],
    "edt": [meaning(-4, "North American Eastern Daylight Time", "America/New_York")],
    "adt": [meaning(-3, "Atlantic Daylight Time", "America/Halifax")],
    "nst": [meaning(-3, 30, "Newfoundland Standard Time", "America/St_Johns")],
    "ndt": [meaning(-2, 30, "Newfoundland Daylight Time", "America/St_Johns")],
    "brt": [meaning(-3, "Brasília Time", "America/Sao_Paulo")],
    "art": [meaning(-3, "Argentina Time", "America/Argentina/Buenos_Aires")],
    "clt": [meaning(-4, "Chile Standard Time", "America/Santiago")],
    "clst": [meaning(-3, "Chile Summer Time", "America/Santiago")],
    "cot": [meaning(-5, "Colombia Time", "America/Bogota")],
    "pet": [meaning(-5, "Peru Time", "America/Lima")],
    "bst": [
      meaning(1, "British Summer Time", "Europe/London"), meaning(6, "Bangladesh Standard Time", "Asia/Dhaka"),
    ],
    "ist": [
      meaning(5, 30, "India Standard Time", "Asia/Kolkata"), meaning(1, "Irish Standard Time", "Europe/Dublin"),
      meaning(2, "Israel Standard Time", "Asia/Jerusalem"),
    ],
    "cst": [
      meaning(-6, "North American Central Standard Time", "America/Chicago"),
      meaning(8, "China Standard Time", "Asia/Shanghai"), meaning(-5, "Cuba Standard Time", "America/Havana"),
    ],
    "cdt": [
      meaning(-5, "North American Central Daylight Time", "America/Chicago"),
      meaning(-4, "Cuba Daylight Time", "America/Havana"),
    ],
    "ast": [
      meaning(-4, "Atlantic Standard Time", "America/Halifax"), meaning(3, "Arabia Standard Time", "Asia/Riyadh"),
    ],
    "gst": [
      meaning(4, "Gulf Standard Time", "Asia/Dubai"), meaning(-2, "South Georgia Time", "Atlantic/South_Georgia"),
    ],
    "sst": [
      meaning(-11, "Samoa Standard Time", "Pacific/Pago_Pago"), meaning(8, "Singapore Standard Time", "Asia/Singapore"),
    ],
  ]
}
