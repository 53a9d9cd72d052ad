public import Foundation

/// Estimates how far a server's clock is from the local wall clock, from timed requests.
///
/// The method is Cristian's (the core of NTP): read the monotonic clock just before sending a
/// request (`sent`) and just after the response arrives (`received`); the server stamped its date
/// somewhere in between. Taking that date to belong to the midpoint, `sent + roundTrip / 2`, is off
/// by at most half the round trip, however the delay was split between the two directions. The
/// fastest round trip gives the tightest bound, so the estimator keeps the one sample with the
/// lowest uncertainty.
///
/// ```swift
/// var estimator = ServerTimeEstimator<ContinuousClock.Instant>()
/// let sent = ContinuousClock.now
/// let serverDate = try await api.serverTime()
/// try estimator.add(.init(sent: sent, serverDate: serverDate, received: ContinuousClock.now))
/// timeline = try estimator.apply(to: timeline)
/// ```
///
/// ### Ageing
///
/// The local monotonic clock drifts against the server's, so a sample's bound loosens as it ages:
/// its uncertainty at an instant is half its round trip plus ``driftPerSecond`` for every second
/// since its midpoint. A new sample replaces the kept one when its uncertainty, compared at the
/// later of the two midpoints, is lower or equal (ties go to the newer sample). With the default
/// drift of 15 µs per second (NTP's assumed frequency tolerance), a sample with a 20 ms round trip
/// gives way to one with a 100 ms round trip after about 45 minutes. With a drift of zero, the
/// sample with the lowest round trip is kept forever.
///
/// If the server's dates are truncated to whole seconds (an HTTP `Date` header), add half a second
/// to each date you pass, and half a second to every uncertainty the estimator reports.
public struct ServerTimeEstimator<Instant: InstantProtocol>: Sendable, Hashable where Instant.Duration == Duration {
  /// One timed request: when it left, what the server's clock read, when the answer came back.
  public struct Sample: Sendable, Hashable {
    /// The monotonic instant just before the request was sent.
    public let sent: Instant
    /// The date the server reported.
    public let serverDate: Date
    /// The monotonic instant just after the response arrived, on the same clock as ``sent``.
    public let received: Instant

    /// Creates a sample; ``ServerTimeEstimator/add(_:)`` validates it.
    public init(sent: Instant, serverDate: Date, received: Instant) {
      self.sent = sent
      self.serverDate = serverDate
      self.received = received
    }

    /// The time from sending the request to receiving the response.
    public var roundTrip: Duration { sent.duration(to: received) }

    /// The instant the server's date is taken to belong to: halfway through the round trip.
    public var midpoint: Instant { sent.advanced(by: roundTrip / 2) }
  }

  /// A server clock's offset against a timeline's local wall clock.
  public struct Estimate: Sendable, Hashable {
    /// Server time minus local wall-clock time: the ``WallClockTimeline/referenceOffset`` to use.
    public let offset: Duration
    /// The most the true offset can differ from ``offset``: half the sample's round trip. It
    /// grows with the sample's age; see ``ServerTimeEstimator/uncertainty(at:)``.
    public let uncertainty: Duration
  }

  /// Samples with a longer round trip are rejected; `nil` accepts any.
  public let maximumRoundTrip: Duration?
  /// How much the local monotonic clock may drift against the server's, per second of age.
  public let driftPerSecond: Duration
  /// The sample the estimate comes from: the one with the lowest uncertainty so far.
  public private(set) var best: Sample?

  /// Creates an estimator with no samples.
  ///
  /// - Parameters:
  ///   - maximumRoundTrip: Reject samples whose round trip is longer; `nil` accepts any.
  ///   - driftPerSecond: How much a sample's uncertainty grows per second of age. Zero keeps the
  ///     sample with the lowest round trip forever.
  /// - Precondition: `maximumRoundTrip`, if given, is positive, and `driftPerSecond` is not negative.
  public init(maximumRoundTrip: Duration? = nil, driftPerSecond: Duration = .microseconds(15)) {
    if let maximumRoundTrip {
      precondition(maximumRoundTrip > .zero, "maximumRoundTrip must be positive, got \(maximumRoundTrip)")
    }
    precondition(driftPerSecond >= .zero, "driftPerSecond must not be negative, got \(driftPerSecond)")
    self.maximumRoundTrip = maximumRoundTrip
    self.driftPerSecond = driftPerSecond
  }

  /// Adds a sample, keeping it if its uncertainty is lower than (or equal to) the kept sample's.
  ///
  /// - Returns: Whether `sample` is now ``best``.
  /// - Throws: ``WallClockTimelineError/receivedBeforeSent(roundTrip:)`` when `received` precedes `sent`;
  ///   ``WallClockTimelineError/roundTripTooLong(_:maximum:)`` when the round trip exceeds
  ///   ``maximumRoundTrip``; ``WallClockTimelineError/nonFiniteDate(_:)`` or
  ///   ``WallClockTimelineError/dateOutOfRange(_:_:)`` with ``WallClockTimelineError/DateRole/serverDate`` for a bad
  ///   server date. A rejected sample leaves the estimator unchanged.
  @discardableResult
  public mutating func add(_ sample: Sample) throws(WallClockTimelineError) -> Bool {
    let roundTrip = sample.roundTrip
    guard roundTrip >= .zero else { throw .receivedBeforeSent(roundTrip: roundTrip) }
    if let maximumRoundTrip, roundTrip > maximumRoundTrip {
      throw .roundTripTooLong(roundTrip, maximum: maximumRoundTrip)
    }
    _ = try sample.serverDate.attosecondsSinceReferenceDate(as: .serverDate)

    guard let current = best else {
      best = sample
      return true
    }
    let comparedAt = max(current.midpoint, sample.midpoint)
    let new = uncertainty(of: sample, at: comparedAt)
    let old = uncertainty(of: current, at: comparedAt)
    guard new < old || (new == old && sample.received >= current.received) else { return false }
    best = sample
    return true
  }

  /// The uncertainty of the estimate at `instant`: half the best sample's round trip, plus
  /// ``driftPerSecond`` for each second (rounded up) from its midpoint to `instant`; `nil` without a
  /// sample.
  public func uncertainty(at instant: Instant) -> Duration? {
    best.map { uncertainty(of: $0, at: instant) }
  }

  /// The server clock's offset against `timeline`'s local wall clock, from the best sample.
  ///
  /// The offset does not depend on `timeline`'s own ``WallClockTimeline/referenceOffset``. It does depend on
  /// its anchor: after a wall-clock change, estimate again against the re-anchored timeline.
  ///
  /// - Returns: The estimate, or `nil` before any sample was added.
  /// - Throws: ``WallClockTimelineError/referenceOffsetOutOfRange(_:)`` when the offset would exceed
  ///   ``WallClockTimeline/maximumReferenceOffset``; with instants from one clock and dates in range, that
  ///   means the sample and the timeline came from different clocks.
  public func estimate(against timeline: WallClockTimeline<Instant>) throws(WallClockTimelineError) -> Estimate? {
    guard let best else { return nil }
    let server = try best.serverDate.attosecondsSinceReferenceDate(as: .serverDate)
    let offset = server - timeline.localAttoseconds(at: best.midpoint)
    let limit = WallClockTimeline<Instant>.maximumReferenceOffset.attosecondCount
    guard -limit <= offset, offset <= limit else {
      throw .referenceOffsetOutOfRange(Duration(attosecondCount: offset))
    }
    return Estimate(offset: Duration(attosecondCount: offset), uncertainty: best.roundTrip / 2)
  }

  /// `timeline` with its reference offset set to the estimate; unchanged before any sample.
  ///
  /// - Throws: The errors of ``estimate(against:)``.
  public func apply(to timeline: WallClockTimeline<Instant>) throws(WallClockTimelineError) -> WallClockTimeline<
    Instant
  > {
    guard let estimate = try estimate(against: timeline) else { return timeline }
    return try timeline.withReferenceOffset(estimate.offset)
  }

  private func uncertainty(of sample: Sample, at instant: Instant) -> Duration {
    let half = sample.roundTrip / 2
    let age = sample.midpoint.duration(to: instant)
    guard age > .zero, driftPerSecond > .zero else { return half }
    let drift = Duration.multiple(of: driftPerSecond, count: age.quotient(dividingBy: .seconds(1), rounding: .up))
    return Duration(attosecondCount: half.attosecondCount + drift.attosecondCount)
  }
}
