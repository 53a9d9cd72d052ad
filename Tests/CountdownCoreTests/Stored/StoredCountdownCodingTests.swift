import CountdownCore
import Foundation
import TestSupport
import Testing

/// The JSON shape of `StoredCountdown`, and what bad stored data does: a clear error, never a trap.
@Suite struct StoredCountdownCodingTests {
  private func json(_ stored: StoredCountdown) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(stored), as: UTF8.self)
  }

  private func decode(_ text: String, nonConformingFloats: Bool = false) throws -> StoredCountdown {
    let decoder = JSONDecoder()
    if nonConformingFloats {
      decoder.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    }
    return try decoder.decode(StoredCountdown.self, from: Data(text.utf8))
  }

  /// The error a decode throws, as the `StoredCountdownError` it wraps.
  private func decodingError(_ text: String, nonConformingFloats: Bool = false) -> (StoredCountdownError?, String) {
    do {
      _ = try decode(text, nonConformingFloats: nonConformingFloats)
      return (nil, "decoded")
    } catch let DecodingError.dataCorrupted(context) {
      return (context.underlyingError as? StoredCountdownError, context.debugDescription)
    } catch {
      return (nil, "\(error)")
    }
  }

  @Test func shapeIsTheDocumentedOne() throws {
    let end = Date(timeIntervalSince1970: 1_800_007_200.25)
    let running = try StoredCountdown(end: end, total: .seconds(7_200))
    #expect(
      try json(running)
        == #"{"end":1800007200.25,"format":1,"state":"running","total":{"attoseconds":0,"seconds":7200}}"#)
    let paused = try StoredCountdown(
      state: .paused(remaining: .milliseconds(4_500_250), since: Date(timeIntervalSince1970: 1_800_002_700)), total: nil
    )
    #expect(
      try json(paused)
        == #"{"format":1,"remaining":{"attoseconds":250000000000000000,"seconds":4500},"since":1800002700,"state":"paused"}"#
    )
    let finished = try StoredCountdown(state: .finished(end: end), total: nil)
    #expect(try json(finished) == #"{"end":1800007200.25,"format":1,"state":"finished"}"#)
    #expect(try decode(#"{"format": 1, "state": "finished", "end": 1800007200.25}"#) == finished)
    // A date strategy on the encoder does not change the shape.
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(running), as: UTF8.self) == (try json(running)))
  }

  @Test func theDocumentedExamplesDecode() throws {
    let running = try decode(
      #"{"format": 1, "state": "running", "end": 1800007200.25, "total": {"seconds": 7200, "attoseconds": 0}}"#)
    #expect(
      running == (try StoredCountdown(end: Date(timeIntervalSince1970: 1_800_007_200.25), total: .seconds(7_200))))
    let paused = try decode(
      #"{"format": 1, "state": "paused", "remaining": {"seconds": 4500, "attoseconds": 0}, "since": 1800002700, "total": {"seconds": 7200, "attoseconds": 0}, "note": "unknown keys are ignored"}"#
    )
    #expect(paused.state == .paused(remaining: .seconds(4_500), since: Date(timeIntervalSince1970: 1_800_002_700)))
    #expect(paused.total == .seconds(7_200))
  }

  @Test func randomCountdownsSurviveAJSONRoundTrip() throws {
    let seed = SeededGenerator.testSeed()
    print("StoredCountdownCodingTests.randomCountdownsSurviveAJSONRoundTrip seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<2_000 {
      let date = Date(timeIntervalSince1970: Double.random(in: -1e10...1e10, using: &generator))
      let duration = Duration(
        secondsComponent: Int64.random(in: -1_000_000_000...1_000_000_000, using: &generator),
        attosecondsComponent: Int64.random(in: 0..<1_000_000_000_000_000_000, using: &generator))
      let total: Duration? = Bool.random(using: &generator) ? nil : (duration < .zero ? .zero - duration : duration)
      let stored: StoredCountdown
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: stored = try StoredCountdown(end: date, total: total)
      case 1: stored = try StoredCountdown(state: .finished(end: date), total: total)
      default: stored = try StoredCountdown(state: .paused(remaining: duration, since: date), total: total)
      }
      let decoded = try JSONDecoder().decode(StoredCountdown.self, from: try JSONEncoder().encode(stored))
      // Durations come back exactly; dates within the rounding of Unix time (a quarter of a microsecond).
      #expect(decoded.total == stored.total)
      switch (stored.state, decoded.state) {
      case (.running(let a), .running(let b)), (.finished(let a), .finished(let b)):
        #expect(abs(a.timeIntervalSince(b)) <= 1e-6 * max(1, abs(a.timeIntervalSince1970) / 1e9))
      case (.paused(let r1, let a), .paused(let r2, let b)):
        #expect(r1 == r2)
        #expect(abs(a.timeIntervalSince(b)) <= 1e-6 * max(1, abs(a.timeIntervalSince1970) / 1e9))
      default:
        Issue.record("state changed: \(stored.state) → \(decoded.state)")
      }
    }
  }

  @Test func badStoredDataIsAClearError() {
    let running = #"{"format": 1, "state": "running", "end": %@}"#
    let cases: [(String, Bool, StoredCountdownError)] = [
      (running.replacingOccurrences(of: "%@", with: "\"nan\""), true, .nonFiniteDate(.end)),
      (running.replacingOccurrences(of: "%@", with: "\"-inf\""), true, .nonFiniteDate(.end)),
      (
        #"{"format": 1, "state": "paused", "remaining": {"seconds": 5, "attoseconds": 0}, "since": "nan"}"#, true,
        .nonFiniteDate(.since)
      ),
      (
        #"{"format": 1, "state": "running", "end": 1800000000, "total": {"seconds": -60, "attoseconds": 0}}"#, false,
        .negativeTotal(.seconds(-60))
      ),
      (
        #"{"format": 1, "state": "running", "end": 1800000000, "total": {"seconds": 9223372036854775807, "attoseconds": 0}}"#,
        false, .durationOutOfRange(.total, .seconds(Int64.max))
      ),
      (
        #"{"format": 1, "state": "paused", "remaining": {"seconds": 0, "attoseconds": 1000000000000000000}, "since": 0}"#,
        false, .invalidAttoseconds(.remaining, 1_000_000_000_000_000_000)
      ),
      (#"{"format": 2, "state": "running", "end": 1800000000}"#, false, .unsupportedFormat(2)),
      (#"{"format": 1, "state": "stopped", "end": 1800000000}"#, false, .unknownState("stopped")),
    ]
    for (text, nonConforming, expected) in cases {
      let (error, message) = decodingError(text, nonConformingFloats: nonConforming)
      #expect(error == expected, "\(text): \(message)")
      #expect(message == expected.description)
    }
    // Microseconds stored as seconds: a date 57 million years away.
    let (error, message) = decodingError(running.replacingOccurrences(of: "%@", with: "1800000000000000"))
    guard case .dateOutOfRange(.end, _)? = error else {
      Issue.record("expected dateOutOfRange, got \(message)")
      return
    }
    #expect(message.contains("Check the unit"))
  }

  @Test func malformedJSONIsAnErrorNeverATrap() {
    let malformed = [
      #"{}"#, #"{"format": 1}"#, #"{"format": "1", "state": "running", "end": 0}"#,
      #"{"format": 1, "state": "running"}"#, #"{"format": 1, "state": "running", "end": "tomorrow"}"#,
      #"{"format": 1, "state": "paused", "since": 0}"#,
      #"{"format": 1, "state": "paused", "remaining": {"seconds": 1e40, "attoseconds": 0}, "since": 0}"#,
      #"{"format": 1, "state": "running", "end": 1e308}"#, #"[1, 2]"#, #"null"#,
    ]
    for text in malformed {
      #expect(throws: (any Error).self, "\(text)") { try decode(text) }
    }
  }

  @Test func randomMutationsOfValidDataDecodeOrThrow() throws {
    // Replace each value of a valid document with hostile ones: every result is a value that passes
    // the checks (so it converts without trapping) or an error.
    let hostile = [
      "\"nan\"", "\"inf\"", "-1e300", "1e300", "0", "-0.0", "9223372036854775807", "-9223372036854775808", "\"\"",
      "null", "{}", "[]", "1.5", "-1",
    ]
    let template =
      #"{"format": F, "state": "paused", "remaining": {"seconds": S, "attoseconds": A}, "since": D, "total": {"seconds": T, "attoseconds": 0}}"#
    let valid = ["F": "1", "S": "60", "A": "0", "D": "1800000000", "T": "120"]
    var decoded = 0
    for key in valid.keys.sorted() {
      for value in hostile {
        var text = template
        for (name, original) in valid {
          text = text.replacingOccurrences(of: name, with: name == key ? value : original)
        }
        if let stored = try? decode(text, nonConformingFloats: true) {
          decoded += 1
          _ = try stored.remaining(at: Date(timeIntervalSince1970: 1_800_000_000))
          _ = stored.restored(
            at: ContinuousClock.now, on: try WallClockTimeline(anchorDate: Date(), anchorInstant: ContinuousClock.now))
        }
      }
    }
    #expect(decoded > 0)
  }
}
