import Foundation

/// Which comes first in a date written with numbers and slashes, `01/02/2027`: the day or the month.
///
/// Without an order such a date is ambiguous unless only one reading is a date (`13/02/2027`), and
/// the parser says which two dates it could be. A locale fixes the order (`--locale en_US`: month
/// first; `en_GB`, `de`: day first).
enum DateOrder: Equatable, Sendable {
  /// `01/02/2027` is 1 February 2027.
  case dayFirst
  /// `01/02/2027` is January 2, 2027.
  case monthFirst

  /// The order in which `locale` writes a numeric date, read from Foundation's pattern for it
  /// (`M/d/y` in en_US, `dd/MM/y` in en_GB, `d.M.y` in de); `nil` for a locale that writes the year
  /// first (`y/M/d` in ja), which leaves a day and a month after it ambiguous.
  init?(locale: Locale) {
    guard let pattern = DateFormatter.dateFormat(fromTemplate: "yMd", options: 0, locale: locale),
      let day = pattern.firstIndex(of: "d"), let month = pattern.firstIndex(of: "M"),
      let year = pattern.firstIndex(of: "y"), year > day || year > month
    else { return nil }
    self = day < month ? .dayFirst : .monthFirst
  }
}
