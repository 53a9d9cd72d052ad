import CountdownKit
import Foundation

/// When `--voice` speaks, and what it says: the time left in the spoken style of the chosen locale.
///
/// At the start, then at each whole hour left, at 30, 20, 15 and 10 minutes, each minute from five
/// down, at 30 and 20 seconds, and each second from ten down, then at zero; only the points inside
/// the countdown. A countdown longer than a day is announced each day above a day.
struct Announcements: Sendable {
  /// The remaining times announced, largest first.
  let points: [Duration]
  private let format: CountdownFormatStyle

  init(total: Duration, locale: Locale) {
    var points: [Duration] = []
    let day = Duration.seconds(86_400)
    if total > day {
      var days = Int64(total.components.seconds / 86_400)
      while days >= 1 && points.count < 1_000 {
        points.append(.seconds(days * 86_400))
        days -= 1
      }
    }
    for hours in stride(from: 23, through: 1, by: -1) { points.append(.seconds(Int64(hours) * 3_600)) }
    for minutes in [30, 20, 15, 10, 5, 4, 3, 2, 1] { points.append(.seconds(Int64(minutes) * 60)) }
    for seconds in [30, 20, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1] { points.append(.seconds(Int64(seconds))) }
    self.points = points.filter { $0 < total } + [.zero]
    format = CountdownFormatStyle(.spoken, locale: locale)
  }

  /// A display whose value is how many points have been passed (0 before the first).
  var display: PhaseDisplay<Int> {
    PhaseDisplay(initial: 0, phases: points.enumerated().map { .init(startsAt: $1, value: $0 + 1) })
  }

  /// What to say when `passed` points have been passed (the spoken text of the last one), or at the
  /// start (`passed` 0) the spoken text of `remaining`.
  func phrase(passed: Int, remaining: Duration) -> String {
    guard passed > 0, passed <= points.count else { return format.format(remaining) }
    return format.format(points[passed - 1])
  }
}
