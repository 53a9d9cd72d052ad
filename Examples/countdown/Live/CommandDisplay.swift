import CountdownKit

/// Everything the command follows on one countdown, as one display, so that the engine wakes only
/// when one of them changes: the time as text, the urgency colour, the ring, and the index of the
/// last spoken announcement passed (with `--voice`).
struct CommandDisplay: CountdownDisplay {
  /// What is shown at a remaining time.
  struct Value: Equatable, Sendable {
    var text: String
    var urgency: Urgency
    /// The fraction of the ring lit, or nil without a ring (plain output).
    var ring: Double?
    /// How many announcements have been passed, or nil without `--voice`.
    var announcement: Int?
  }

  let text: MappedDisplay<OffsetDisplay<TimeDisplay>, String>
  let urgency: PhaseDisplay<Urgency>
  let ring: RingDisplay?
  let announcements: PhaseDisplay<Int>?

  func value(remaining: Duration) -> Value {
    Value(
      text: text.value(remaining: remaining), urgency: urgency.value(remaining: remaining),
      ring: ring?.value(remaining: remaining) ?? nil, announcement: announcements?.value(remaining: remaining))
  }

  /// The soonest change (the largest remaining time) of the parts.
  func nextChange(after remaining: Duration) -> Duration? {
    let changes = [
      text.nextChange(after: remaining), urgency.nextChange(after: remaining), ring?.nextChange(after: remaining),
      announcements?.nextChange(after: remaining),
    ]
    return changes.compactMap { $0 }.max()
  }

  var period: Duration? { text.period }
}
