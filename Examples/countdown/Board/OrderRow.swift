import CountdownKit
import Foundation

/// How one order shows in the board: the fitting-window widget (ring glyph + coarse text) and the
/// event countdown. Pure: ``BoardController/row(_:)`` fills it from the latest snapshots.
struct OrderRow: Equatable, Sendable {
  /// The window display's value: coarse text, urgency, fraction left in quarters.
  typealias WindowValue = CombinedDisplay<
    CombinedDisplay<MappedDisplay<OffsetDisplay<TimeDisplay>, String>, PhaseDisplay<Urgency>>, ProgressDisplay
  >.Value

  var id: Int64
  var title: String
  var window: Window
  /// The event countdown's text ("started" once it has), if the order has an event.
  var event: String?

  /// What the window part shows.
  enum Window: Equatable, Sendable {
    case counting(text: String, urgency: Urgency, progress: Double, isPaused: Bool)
    case invalid(String)
    /// Not delivered yet.
    case loading
  }

  init(order: Order, window: WindowValue?, isPaused: Bool, event: String?) {
    id = order.id
    title = order.title
    if case .failure(let problem) = order.window {
      self.window = .invalid(problem.description)
    } else if let window {
      self.window = .counting(
        text: window.first.first, urgency: window.first.second, progress: window.second, isPaused: isPaused)
    } else {
      self.window = .loading
    }
    self.event = order.eventAt == nil ? nil : event
  }

  /// The phases of a fitting window: hurry in the last half hour, last minutes in the last five.
  static let phases: PhaseDisplay<Urgency> = .phases(
    .plenty, [hurryStarts: .hurry, lastMinutesStart: .lastMinute, .zero: .over])
  /// The time left at which a window's hurry begins.
  static let hurryStarts: Duration = .seconds(1_800)
  /// The time left at which a window's last minutes begin.
  static let lastMinutesStart: Duration = .seconds(300)

  /// A one-character ring for a fraction left in quarters: ● ◕ ◑ ◔ ○.
  static func ringGlyph(_ progress: Double) -> Character {
    switch progress {
    case 0.875...: "●"
    case 0.625...: "◕"
    case 0.375...: "◑"
    case 0.125...: "◔"
    default: "○"
    }
  }

  /// The window part as plain text: "◑ 45 min", "⏸ 45 min (paused)", "○ finished".
  var windowText: String {
    switch window {
    case .counting(let text, let urgency, let progress, let isPaused):
      if isPaused { return "⏸ \(text) (paused)" }
      if urgency == .over { return "○ finished" }
      return "\(Self.ringGlyph(progress)) \(text)"
    case .invalid(let problem):
      return "⚠ invalid: \(problem)"
    case .loading:
      return "…"
    }
  }

  /// The row as one line of plain text, for `--plain`.
  var plainLine: String {
    var line = "#\(id) \(title) | \(windowText)"
    if let eventText { line += " | \(eventText)" }
    return line
  }

  /// The event part as text: "event in 1:00:00", "event started", or nil without an event.
  var eventText: String? {
    event.map { $0 == "started" ? "event started" : "event in \($0)" }
  }

  /// The colour of the window part: the urgency's, yellow while paused, grey when over or loading,
  /// red when invalid.
  var color: ANSI.Color {
    switch window {
    case .counting(_, let urgency, _, let isPaused): isPaused ? .yellow : (urgency == .over ? .gray : urgency.color)
    case .invalid: .red
    case .loading: .gray
    }
  }
}
