import Foundation

// The JSON shape of a stored countdown. It is part of the public API: data written by one version
// is read by every later one. A new shape gets a new `format` number.

extension StoredCountdown: Codable {
  private enum Key: String, CodingKey {
    case format, state, end, remaining, since, total
  }

  private enum DurationKey: String, CodingKey {
    case seconds, attoseconds
  }

  /// The version of the shape that ``encode(to:)`` writes.
  public static var format: Int { 1 }

  /// Reads a stored countdown, checking every value.
  ///
  /// The shape (format 1), in JSON:
  ///
  /// ```json
  /// {"format": 1, "state": "running", "end": 1800007200.25, "total": {"seconds": 7200, "attoseconds": 0}}
  /// {"format": 1, "state": "paused", "remaining": {"seconds": 4500, "attoseconds": 0},
  ///  "since": 1800002700, "total": {"seconds": 7200, "attoseconds": 0}}
  /// {"format": 1, "state": "finished", "end": 1800007200.25}
  /// ```
  ///
  /// - `format`: 1.
  /// - `state`: `"running"`, `"paused"` or `"finished"`.
  /// - `end` (running, finished) and `since` (paused): dates as Unix time, seconds since 1970-01-01 00:00 UTC,
  ///   a number with a fraction. They are written as numbers whatever the encoder's date strategy.
  /// - `remaining` (paused) and `total` (optional, absent when there is none): exact durations,
  ///   whole `seconds` plus `attoseconds` (10⁻¹⁸ s, below 10¹⁸ in magnitude, with the sign of the
  ///   seconds), like `Duration.components`.
  ///
  /// Keys are never renamed or removed within a format; unknown keys are ignored.
  ///
  /// - Throws: `DecodingError.dataCorrupted` with a ``StoredCountdownError`` as the underlying
  ///   error for a NaN, infinite or absurd date, a negative total, an absurd duration, an unknown
  ///   state or format; the usual `DecodingError`s for missing keys and wrong types.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    func corrupted(_ error: StoredCountdownError, at key: Key) -> DecodingError {
      .dataCorrupted(
        .init(codingPath: container.codingPath + [key], debugDescription: error.description, underlyingError: error))
    }
    let format = try container.decode(Int.self, forKey: .format)
    guard format == Self.format else { throw corrupted(.unsupportedFormat(format), at: .format) }
    let stateName = try container.decode(String.self, forKey: .state)
    let state: State
    switch stateName {
    case "running":
      state = .running(end: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .end)))
    case "finished":
      state = .finished(end: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .end)))
    case "paused":
      let remaining = try Self.decodeDuration(from: container, forKey: .remaining, field: .remaining)
      state = .paused(
        remaining: remaining, since: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .since)))
    default:
      throw corrupted(.unknownState(stateName), at: .state)
    }
    let total =
      try container.contains(.total) ? Self.decodeDuration(from: container, forKey: .total, field: .total) : nil
    do throws(StoredCountdownError) {
      try self.init(state: state, total: total)
    } catch {
      let key: Key =
        switch error {
        case .nonFiniteDate(let field), .dateOutOfRange(let field, _), .durationOutOfRange(let field, _):
          Key(stringValue: field.rawValue) ?? .state
        case .negativeTotal: .total
        default: .state
        }
      throw corrupted(error, at: key)
    }
  }

  /// Writes the stored countdown in the shape documented under ``init(from:)``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(Self.format, forKey: .format)
    switch state {
    case .running(let end):
      try container.encode("running", forKey: .state)
      try container.encode(end.timeIntervalSince1970, forKey: .end)
    case .finished(let end):
      try container.encode("finished", forKey: .state)
      try container.encode(end.timeIntervalSince1970, forKey: .end)
    case .paused(let remaining, let since):
      try container.encode("paused", forKey: .state)
      try Self.encode(remaining, to: &container, forKey: .remaining)
      try container.encode(since.timeIntervalSince1970, forKey: .since)
    }
    if let total { try Self.encode(total, to: &container, forKey: .total) }
  }

  private static func encode(_ duration: Duration, to container: inout KeyedEncodingContainer<Key>, forKey key: Key)
    throws
  {
    var nested = container.nestedContainer(keyedBy: DurationKey.self, forKey: key)
    try nested.encode(duration.components.seconds, forKey: .seconds)
    try nested.encode(duration.components.attoseconds, forKey: .attoseconds)
  }

  private static func decodeDuration(
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key,
    field: StoredCountdownError.Field
  ) throws -> Duration {
    let nested = try container.nestedContainer(keyedBy: DurationKey.self, forKey: key)
    let seconds = try nested.decode(Int64.self, forKey: .seconds)
    let attoseconds = try nested.decode(Int64.self, forKey: .attoseconds)
    guard attoseconds.magnitude < 1_000_000_000_000_000_000 else {
      let error = StoredCountdownError.invalidAttoseconds(field, attoseconds)
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: nested.codingPath + [DurationKey.attoseconds], debugDescription: error.description,
          underlyingError: error))
    }
    return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
  }
}
