// libFuzzer target: WallClockTimeline's conversions between arbitrary `Date`s (NaN, infinities, huge values
// included) and a clock's instants, with arbitrary anchors and reference offsets, and the server
// time estimator fed arbitrary samples. Conversions throw or give monotonic, round-tripping results;
// nothing traps. Built and run by Fuzz/run.
import Foundation

/// libFuzzer's entry point: checks one input; a broken invariant stops the process.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimeline(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: data, count: size))
  // Instants within a billion years of the origin: far beyond the 400,000 years a timeline needs.
  let anchorInstant = FuzzInstant(offset: input.duration(limitSeconds: 31_557_600_000_000_000))
  let anchorDate = input.date()
  let offset = input.byte() & 1 == 0 ? Duration.zero : input.duration(limitSeconds: 12_623_040_000_000)
  let timeline: WallClockTimeline<FuzzInstant>
  do {
    timeline = try WallClockTimeline(anchorDate: anchorDate, anchorInstant: anchorInstant, referenceOffset: offset)
  } catch {
    let supported = !anchorDate.isNaN && WallClockTimeline<FuzzInstant>.supportedDates.contains(anchorDate)
    require(
      !supported || offset.magnitudeExceeds(WallClockTimeline<FuzzInstant>.maximumReferenceOffset),
      "a valid anchor was refused: \(error)")
    return 0
  }
  var previous: (date: Date, instant: FuzzInstant)?
  var dates = (0..<8).map { _ in input.date() }
  dates.sort { ($0.isNaN ? 0 : $0.timeIntervalSinceReferenceDate) < ($1.isNaN ? 0 : $1.timeIntervalSinceReferenceDate) }
  for date in dates {
    guard let instant = try? timeline.instant(for: date) else {
      require(
        date.isNaN || !WallClockTimeline<FuzzInstant>.supportedDates.contains(date),
        "supported date \(date) was refused")
      continue
    }
    let back = timeline.date(for: instant)
    let error = abs(back.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    let tolerance = max(1e-6, abs(date.timeIntervalSinceReferenceDate) * 1e-15)
    require(error <= tolerance, "round trip of \(date) is off by \(error) s")
    if let previous, previous.date <= date {
      require(previous.instant <= instant, "instant(for:) is not monotonic")
    }
    previous = (date, instant)
  }
  let jumped = try? timeline.reanchored(date: input.date(), instant: anchorInstant)
  if let jumped { require(jumped.referenceOffset == timeline.referenceOffset, "re-anchoring lost the offset") }
  _ = timeline.date(for: FuzzInstant(offset: input.duration(limitSeconds: 31_557_600_000_000_000)))

  var estimator = ServerTimeEstimator<FuzzInstant>(maximumRoundTrip: input.byte() & 1 == 0 ? nil : .seconds(5))
  for _ in 0..<4 {
    let sent = anchorInstant.advanced(by: input.duration(limitSeconds: 31_557_600_000))
    let received = sent.advanced(by: input.duration(limitSeconds: 100))
    _ = try? estimator.add(.init(sent: sent, serverDate: input.date(), received: received))
  }
  if let estimate = try? estimator.estimate(against: timeline) {
    require(estimate.uncertainty >= .zero, "negative uncertainty")
    _ = try? estimator.apply(to: timeline)
  }
  return 0
}

extension FuzzInput {
  /// A date: any `Double`, or one near the present, or one near the edges of the supported range.
  mutating func date() -> Date {
    switch byte() % 4 {
    case 0: Date(timeIntervalSinceReferenceDate: double())
    case 1: Date(timeIntervalSinceReferenceDate: Double(int64() % 4_000_000_000) + Double(byte()) / 256)
    case 2:
      Date(timeIntervalSinceReferenceDate: (byte() & 1 == 0 ? 1 : -1) * (3_155_760_000_000 + Double(int64() % 1_000)))
    default: Date(timeIntervalSinceReferenceDate: Double(int64()))
    }
  }
}

extension Date {
  fileprivate var isNaN: Bool { timeIntervalSinceReferenceDate.isNaN }
}

extension Duration {
  fileprivate func magnitudeExceeds(_ limit: Duration) -> Bool {
    self > limit || self < .zero - limit
  }
}

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError("Invariant broken: \(message())") }
}
