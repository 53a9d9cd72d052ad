import CountdownKit
import Foundation
import Synchronization

/// The display of the time as text in one of the format presets: its value is the text itself, so
/// the engine wakes, and plain output prints, only when the text changes.
///
/// The base display rounds exactly like the preset (whole seconds; minutes above an hour for
/// `units`; half hours above an hour for `coarse`), so the text of every value is the formatted
/// display value and the two can never disagree.
enum TimeDisplay: CountdownDisplay {
  case rounded(RoundedDisplay)
  case adaptive(AdaptiveDisplay)

  /// The text display for `style`, counting down (or up with `countsUp`), with negative overtime
  /// after the end when `showsOvertime` is set.
  ///
  /// Counting up shows the time elapsed since `total` was left (`total - remaining`): from zero at
  /// the start of a countdown of length `total`, or since the start of a stopwatch (`total` zero).
  static func text(
    _ style: CountdownFormatStyle.Preset,
    locale: Locale,
    countsUp: Bool = false,
    total: Duration = .zero,
    showsOvertime: Bool = false
  ) -> MappedDisplay<OffsetDisplay<TimeDisplay>, String> {
    let format = FormatCache(CountdownFormatStyle(style, rounding: countsUp ? .down : .up, locale: locale))
    let base = base(for: style, countsUp: countsUp, showsOvertime: showsOvertime)
    return OffsetDisplay(base: base, offset: countsUp ? total : .zero).map { format.format($0) }
  }

  /// The rounding behind the text of `style`.
  static func base(for style: CountdownFormatStyle.Preset, countsUp: Bool, showsOvertime: Bool) -> TimeDisplay {
    let unit: Duration = style == .coarse ? .seconds(60) : .seconds(1)
    if countsUp { return .rounded(.rounded(to: unit, reading: .elapsed)) }
    if showsOvertime { return .rounded(RoundedDisplay(unit: unit, showsOvertime: true)) }
    switch style {
    case .digital:
      return .rounded(.seconds)
    case .coarse:
      return .adaptive(.coarse)
    case .units, .spoken:
      return .adaptive(
        .adaptive(
          [.init(above: .seconds(86_400), unit: .seconds(3_600)), .init(above: .seconds(3_600), unit: .seconds(60))],
          finest: .seconds(1)))
    }
  }

  func value(remaining: Duration) -> Duration {
    switch self {
    case .rounded(let display): display.value(remaining: remaining)
    case .adaptive(let display): display.value(remaining: remaining)
    }
  }

  func nextChange(after remaining: Duration) -> Duration? {
    switch self {
    case .rounded(let display): display.nextChange(after: remaining)
    case .adaptive(let display): display.nextChange(after: remaining)
    }
  }

  var period: Duration? {
    switch self {
    case .rounded(let display): display.period
    case .adaptive(let display): display.period
    }
  }
}

/// A format style that remembers the last few values it formatted.
///
/// The text display is asked for the same value many times between two changes of it (each step of
/// the ring, and the engine's search for the next change, computes every part of the value), and
/// Foundation's formatting is the costliest thing the live view does; a value is formatted once.
final class FormatCache: Sendable {
  private let style: CountdownFormatStyle
  private let recent = Mutex<[(value: Duration, text: String)]>([])

  init(_ style: CountdownFormatStyle) {
    self.style = style
  }

  func format(_ value: Duration) -> String {
    if let text = recent.withLock({ $0.first { $0.value == value }?.text }) { return text }
    let text = style.format(value)
    recent.withLock { recent in
      recent.insert((value, text), at: 0)
      if recent.count > 4 { recent.removeLast() }
    }
    return text
  }
}
