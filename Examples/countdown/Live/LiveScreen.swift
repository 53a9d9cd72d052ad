/// Everything the live countdown shows, as plain values: the state ``LiveFrameBuilder`` turns into a frame.
struct LiveScreen: Equatable, Sendable {
  /// The time, formatted in the chosen style.
  var text: String
  /// The fraction of the ring lit (the fraction left, or done when counting up to a time, or the
  /// current minute of a stopwatch).
  var ring: Double?
  var urgency: Urgency = .plenty
  /// Whether the ring is a stopwatch's minute ring, drawn in one colour.
  var isStopwatch = false
  var isPaused = false
  var title: String?
  /// A short line under the time: "ends 18:25:00", "paused", "time's up".
  var status = ""
  /// "2/4" while a sequence of countdowns runs.
  var position: String?
  /// `--end-text`, shown once the countdown has ended.
  var endText: String?
  /// Whether `--blink` currently shows the frame inverted.
  var isFlashed = false
  /// The laps of a stopwatch, as lines.
  var laps: [String] = []
  /// The key help at the bottom.
  var hint = "space pause · +/- 1 min · q quit"

  /// The colour of the ring and the time.
  var color: ANSI.Color {
    if isPaused { return .gray }
    return isStopwatch ? .cyan : urgency.color
  }
}
