/// The live values of a board that keeps every row's value (``BoardValues/everyRow``): what the core
/// keeps so that each wake-up produces the rows whose value changed, at a cost close to a sweep's.
///
/// A display that counts down whole units (seconds, minutes) changes every row's value once per unit,
/// each row at the same phase within the unit until it is paused, retargeted or resumed. Its running rows
/// that no slot shows are kept in *phase groups*: group `g` holds the rows whose end falls in the `g`th
/// window of the unit (windows a tolerance wide at most), each with the number of the unit its end falls
/// in. At the end of its window, once per unit, a group is served in one walk over two contiguous
/// arrays: every row's value is its end's unit number minus the group's period, times the unit. No row
/// is visited on its own, no schedule item is moved, nothing is sorted.
///
/// Other rows (paused, finished, shown by a slot, or of a display that changes at thresholds: phases,
/// progress steps) keep their last value in a column and are served by the schedule like any row; for a
/// display with few values (phases, progress of at most ``countedValueLimit`` steps) the core keeps how
/// many rows show each value.
@usableFromInline
package struct LiveColumns: Sendable {
  /// A row whose value changed: a remaining time that shows its value (the value itself, for a display
  /// whose values are durations in ticks: see ``valueIsTicks``), and whether it is paused or finished.
  @usableFromInline
  package struct Entry: Sendable {
    @usableFromInline package var row: UInt32
    @usableFromInline package var flags: UInt32
    @usableFromInline package var remaining: Tick

    package static var pausedFlag: UInt32 { 1 }
    package static var finishedFlag: UInt32 { 2 }

    package var isPaused: Bool { flags & Self.pausedFlag != 0 }
    package var isFinished: Bool { flags & Self.finishedFlag != 0 }
  }

  /// The rows whose end falls in one window of the unit.
  package struct Group: Sendable {
    /// The rows, and the number of the unit each one's end falls in (as `~number`, negative, for a row
    /// that must not be given at the next serve: it was given its value when it joined, after its own
    /// boundary in the current period). A row's position here is its head's `binding` field (a row in
    /// a group has no binding).
    package var rows: [UInt32] = []
    package var units: [Int32] = []
    /// The period of the last serve: the rows showed `(unit number - period) · unit` since.
    package var period: Int64
    /// When the group is served next.
    package var nextServe: Tick
  }

  /// The board's display class (its plan).
  package let displayClass: UInt32
  /// Whether the display's compact values are the durations it shows, in ticks (rounded and adaptive
  /// plans): entries then carry the value itself, which is a remaining time that shows it.
  package let valueIsTicks: Bool
  /// For a display that counts down whole units, the unit and the width of a group's window; 0
  /// otherwise (no groups).
  package let unit: Tick
  package let width: Tick
  package var groups: [Group] = []
  /// The rows whose value changed since the last flush.
  package var batch: [Entry] = []
  /// The group of each row in a group (allocated when the first row joins one).
  package var groupOf = LazyColumn<UInt16>(default: 0)
  /// The last value and flags of each row outside the groups (allocated when the first such row comes).
  package var values = LazyColumn<Int64>(default: 0)
  package var valueFlags = LazyColumn<UInt8>(default: 0)
  /// How many rows show each compact value (phases, and progress of few steps), with a remaining time
  /// that shows it; nil for displays with many values.
  package var counts: [Int64: (count: Int, remaining: Tick)]?

  /// The most values a display may have for the core to count rows per value.
  package static var countedValueLimit: Int { 4_096 }

  /// Whether `valueFlags` says the column holds a value.
  static var hasValueFlag: UInt8 { 4 }

  /// The live values of a board of display class `displayClass` with `plan`, served within
  /// `tolerance` of each change.
  package init(displayClass: UInt32, plan: DisplayPlan, tolerance: Tick) {
    self.displayClass = displayClass
    switch plan {
    case .rounded, .adaptive: valueIsTicks = true
    case .phases, .progress: valueIsTicks = false
    }
    let slot = Swift.max(tolerance / 16 * 15, 1)
    if case .rounded(let unit, false, false) = plan, unit > tolerance, (unit + slot - 1) / slot <= Tick(UInt16.max) {
      // As many windows as it takes for each to be at most 15/16 of the tolerance (as the wheel's
      // slots), so that a group served at the end of its window is never later than the tolerance.
      let count = (unit + slot - 1) / slot
      self.unit = unit
      width = (unit + count - 1) / count
      groups = (0..<Int(count)).map { _ in Group(period: .min, nextServe: .max) }
    } else {
      unit = 0
      width = 0
    }
    switch plan {
    case .phases: counts = [:]
    case .progress(let steps, _) where steps <= Self.countedValueLimit: counts = [:]
    case .rounded, .adaptive, .progress: counts = nil
    }
  }

  /// The rule of the display's whole units (for a board with groups).
  var rule: RoundedRule { RoundedRule(unit: unit) }

  /// The group of a row ending at `end`, and the number of the unit `end` falls in; nil when the
  /// number does not fit a group's 32 bits (an end some 68 years away for seconds).
  func group(of end: Tick) -> (group: Int, unitNumber: Int32)? {
    guard end >= 0 else { return nil }
    let (number, phase) = rule.unitNumber(of: end)
    guard number <= Int64(Int32.max) else { return nil }
    return (Int(phase / width), Int32(number))
  }

  /// What a row of a group whose end falls in unit `number` shows from the group's serve in period
  /// `period` on (``RoundedRule/units(endingIn:period:)``).
  func value(ofUnit number: Int32, period: Int64) -> Tick {
    rule.value(units: rule.units(endingIn: Int64(number), period: period))
  }

  /// When group `group` is served at the end of period `period`: `period · unit + (group + 1) · width`.
  func serveTime(of group: Int, period: Int64) -> Tick {
    let (start, overflow) = period.multipliedReportingOverflow(by: unit)
    guard !overflow else { return period < 0 ? Ticks.min : Ticks.max }
    return Ticks.sum(start, Tick(group + 1) * width)
  }

  /// The period of the last serve of `group` at or before `now`.
  func period(of group: Int, at now: Tick) -> Int64 {
    let offset = Ticks.difference(now, Tick(group + 1) * width)
    let (quotient, remainder) = offset.quotientAndRemainder(dividingBy: unit)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// Counts a row showing `value` (with `remaining` left) more (`delta` 1) or less (-1).
  mutating func count(_ value: Int64, remaining: Tick, by delta: Int) {
    guard counts != nil else { return }
    let current = counts?[value] ?? (0, remaining)
    let updated = current.count + delta
    counts?[value] = updated == 0 ? nil : (updated, delta > 0 ? remaining : current.remaining)
  }
}
