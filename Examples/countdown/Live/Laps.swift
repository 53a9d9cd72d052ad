/// A stopwatch's laps: `l` records one, `r` clears them with the stopwatch.
struct Laps: Equatable, Sendable {
  /// The stopwatch's elapsed time at each press of `l`.
  private(set) var marks: [Duration] = []

  /// Records a lap ending at `elapsed`.
  mutating func record(at elapsed: Duration) {
    marks.append(max(elapsed, marks.last ?? .zero))
  }

  mutating func removeAll() {
    marks.removeAll()
  }

  /// Each lap's own length: from the previous lap (or the start) to its end.
  var lengths: [Duration] {
    zip(marks, [.zero] + marks).map { $0 - $1 }
  }

  /// One line per lap, `lap 1  0:01:02.35`, numbered from 1.
  var lines: [String] {
    lengths.enumerated().map { "lap \($0 + 1)  \(Self.format($1))" }
  }

  /// `H:MM:SS.cc`, rounded down to the hundredth.
  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = max(duration, .zero).components
    let hundredths = attoseconds / 10_000_000_000_000_000
    let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3_600)
    let (minutes, secondsLeft) = rest.quotientAndRemainder(dividingBy: 60)
    return "\(hours):\(twoDigits(minutes)):\(twoDigits(secondsLeft)).\(twoDigits(hundredths))"
  }

  private static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
