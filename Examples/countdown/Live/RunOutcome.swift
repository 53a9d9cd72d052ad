/// How `countdown run` ended, and its exit status (listed in `countdown help run` and README.md).
struct RunOutcome: Sendable {
  /// Lines to print once the terminal is restored: a summary, the laps of a stopwatch.
  var lines: [String]
  /// Whether the last countdown reached zero, or a stopwatch was stopped by the user.
  var reachedZero: Bool

  /// The exit status when the last countdown reached zero, or a stopwatch was stopped with `q`.
  static let reachedZeroStatus: Int32 = 0
  /// The exit status when the user quit with `q` (or Esc) before zero, also part-way through a
  /// sequence: `countdown 25m && play-alarm` does not sound the alarm after the user gave up. Not 1
  /// (an error) nor 2 (which argparse and getopt programs, termdown among them, give for bad input).
  static let quitEarlyStatus: Int32 = 3
}
