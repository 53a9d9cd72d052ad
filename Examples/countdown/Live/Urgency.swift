import CountdownKit

/// How close a countdown is to its end, shown as the ring's colour.
enum Urgency: Equatable, Sendable {
  case plenty, hurry, lastMinute, over

  /// The phases of a countdown of length `total`: hurry in the last quarter (at most the last five
  /// minutes), last minute in the last minute (at most the last tenth), over once it has ended.
  static func phases(total: Duration?) -> PhaseDisplay<Urgency> {
    guard let total, total > .zero else { return .phases(.plenty, [.zero: .over]) }
    let hurry = min(total / 4, .seconds(300))
    let lastMinute = min(total / 10, .seconds(60))
    return .phases(.plenty, [hurry: .hurry, lastMinute: .lastMinute, .zero: .over])
  }

  /// The colour of the ring and the time.
  var color: ANSI.Color {
    switch self {
    case .plenty: .green
    case .hurry: .yellow
    case .lastMinute: .red
    case .over: .magenta
    }
  }
}
