public import Foundation

/// Converts between wall-clock dates and the instants of a monotonic clock.
///
/// A countdown measures time on a monotonic clock such as `ContinuousClock`, which keeps counting
/// while the machine sleeps and never jumps when someone edits the wall clock. Targets often arrive
/// as `Date`s, from a database or a server. A timeline converts between the two at the edge: it holds
/// an *anchor pair*, a wall-clock date and a monotonic instant read at the same moment, and an
/// optional ``referenceOffset`` to a trusted clock such as a server's.
///
/// ```swift
/// let timeline = try WallClockTimeline(anchorDate: Date(), anchorInstant: ContinuousClock.now)
/// let end = try timeline.instant(for: order.fittingEndsAt)
/// ```
///
/// A timeline never reads a clock: whoever builds one reads both clocks, together.
///
/// ### Dates move, durations do not
///
/// An instant is fixed on the monotonic clock. A target given as a *date* is a statement about what
/// a clock will read, so when the wall clock is changed (by the user, or by time synchronisation),
/// build a new anchor with ``reanchored(date:instant:)`` and convert the date again: the matching
/// instant moves. A target given as a *duration* ("two hours from now") is an instant from the
/// start and never moves: a clock change cannot end a two-hour window early.
///
/// Re-anchoring keeps ``referenceOffset``. When the offset came from a server, the server's clock
/// did not jump, but the offset measured against the local clock did; apply the
/// ``ServerTimeEstimator`` again to the re-anchored timeline (``ServerTimeEstimator/apply(to:)``).
/// Its samples are monotonic instants, so the server time it gives is the same as before the jump.
///
/// ### Ranges
///
/// Dates must be finite and within ``supportedDates`` (±100,000 years around 2001-01-01, which
/// includes `Date.distantPast` and `Date.distantFuture`); the reference offset must be within
/// ±``maximumReferenceOffset``. Anything else throws a ``WallClockTimelineError``. Inside these ranges the
/// arithmetic, done on exact 128-bit attosecond counts, cannot overflow. The instant type must be
/// able to advance 400,000 years either way from the anchor, which holds for the system clocks,
/// whose instants count from boot.
public struct WallClockTimeline<Instant: InstantProtocol>: Sendable, Hashable where Instant.Duration == Duration {
  /// The local wall-clock date of the anchor pair.
  public let anchorDate: Date
  /// The monotonic instant at which the local wall clock read ``anchorDate``.
  public let anchorInstant: Instant
  /// How far the reference clock is ahead of the local wall clock: reference time minus local time.
  ///
  /// Zero when the local wall clock is the reference; an estimate from a ``ServerTimeEstimator``
  /// when a server's clock is.
  public private(set) var referenceOffset: Duration
  /// ``anchorDate`` in attoseconds since 2001-01-01.
  private let anchorAttoseconds: Int128

  /// The dates a timeline accepts: 100,000 years (of 365.25 days) either side of 2001-01-01.
  public static var supportedDates: ClosedRange<Date> {
    let limit = TimeInterval(TimelineLimits.dateSeconds)
    return Date(timeIntervalSinceReferenceDate: -limit)...Date(timeIntervalSinceReferenceDate: limit)
  }

  /// The largest reference offset a timeline accepts, either way: 200,000 years.
  public static var maximumReferenceOffset: Duration { TimelineLimits.referenceOffset }

  /// Creates a timeline from a wall-clock date and a monotonic instant read at the same moment.
  ///
  /// Read the two clocks one right after the other, for example
  /// `try WallClockTimeline(anchorDate: Date(), anchorInstant: ContinuousClock.now)`.
  ///
  /// - Parameters:
  ///   - anchorDate: The local wall-clock date at `anchorInstant`.
  ///   - anchorInstant: The monotonic instant at `anchorDate`.
  ///   - referenceOffset: Reference time minus local wall-clock time; zero to use the local clock.
  /// - Throws: ``WallClockTimelineError/nonFiniteDate(_:)`` or ``WallClockTimelineError/dateOutOfRange(_:_:)`` for a
  ///   bad `anchorDate`; ``WallClockTimelineError/referenceOffsetOutOfRange(_:)`` for an offset beyond
  ///   ``maximumReferenceOffset``.
  public init(anchorDate: Date, anchorInstant: Instant, referenceOffset: Duration = .zero)
    throws(WallClockTimelineError)
  {
    guard referenceOffset.isSupportedReferenceOffset else { throw .referenceOffsetOutOfRange(referenceOffset) }
    self.anchorAttoseconds = try anchorDate.attosecondsSinceReferenceDate(as: .anchorDate)
    self.anchorDate = anchorDate
    self.anchorInstant = anchorInstant
    self.referenceOffset = referenceOffset
  }

  /// The monotonic instant at which the reference clock reads `date`.
  ///
  /// Monotonic in `date`, and exact up to the attosecond rounding of `date`'s fraction of a second.
  ///
  /// - Throws: ``WallClockTimelineError/nonFiniteDate(_:)`` or ``WallClockTimelineError/dateOutOfRange(_:_:)`` with
  ///   ``WallClockTimelineError/DateRole/targetDate`` when `date` is NaN, infinite or outside
  ///   ``supportedDates``.
  public func instant(for date: Date) throws(WallClockTimelineError) -> Instant {
    let target = try date.attosecondsSinceReferenceDate(as: .targetDate)
    // At most 400,000 years in magnitude (two dates and an offset, all bounded): fits `Duration`.
    let sinceAnchor = target - referenceOffset.attosecondCount - anchorAttoseconds
    return anchorInstant.advanced(by: Duration(attosecondCount: sinceAnchor))
  }

  /// The date the reference clock reads at `instant`.
  ///
  /// Monotonic in `instant`. Within a few years of the anchor, the result is within a microsecond of
  /// the exact value (a `Date` near the present resolves about 0.12 µs). Never fails: an instant far
  /// from the anchor gives a date outside ``supportedDates``, which ``instant(for:)`` would reject.
  public func date(for instant: Instant) -> Date {
    Date(attosecondsSinceReferenceDate: localAttoseconds(at: instant) + referenceOffset.attosecondCount)
  }

  /// The date the local wall clock reads at `instant` (ignoring ``referenceOffset``), in
  /// attoseconds since 2001-01-01, assuming the wall clock has not been changed since the anchor.
  package func localAttoseconds(at instant: Instant) -> Int128 {
    anchorAttoseconds + anchorInstant.duration(to: instant).attosecondCount
  }

  /// The same timeline with a new anchor pair and the same ``referenceOffset``.
  ///
  /// Call it when the system reports that the wall clock changed (`NSSystemClockDidChange`,
  /// `UIApplication.significantTimeChangeNotification`), with a fresh pair read together, such as
  /// `(Date(), ContinuousClock.now)`. Then convert date targets again; instants already computed
  /// from durations stay as they are. If the offset came from a ``ServerTimeEstimator``, apply the
  /// estimator to the result, since the offset to the server changed by the size of the jump.
  ///
  /// - Throws: ``WallClockTimelineError/nonFiniteDate(_:)`` or ``WallClockTimelineError/dateOutOfRange(_:_:)`` with
  ///   ``WallClockTimelineError/DateRole/anchorDate`` for a bad `date`.
  public func reanchored(date: Date, instant: Instant) throws(WallClockTimelineError) -> Self {
    try Self(anchorDate: date, anchorInstant: instant, referenceOffset: referenceOffset)
  }

  /// The same anchor pair with a different reference offset.
  ///
  /// - Parameter offset: Reference time minus local wall-clock time.
  /// - Throws: ``WallClockTimelineError/referenceOffsetOutOfRange(_:)`` for an offset beyond
  ///   ``maximumReferenceOffset``.
  public func withReferenceOffset(_ offset: Duration) throws(WallClockTimelineError) -> Self {
    guard offset.isSupportedReferenceOffset else { throw .referenceOffsetOutOfRange(offset) }
    var copy = self
    copy.referenceOffset = offset
    return copy
  }
}
