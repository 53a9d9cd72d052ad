public import Foundation

/// A reason a ``StoredCountdown`` refused its input: bad stored data or a bad date.
///
/// Decoding a stored countdown reports these as `DecodingError.dataCorrupted`, with this error as the
/// underlying error and its ``description`` as the debug description.
public enum StoredCountdownError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which value an error is about.
  public enum Field: String, Sendable, Hashable, CustomStringConvertible {
    /// The end date of a running countdown.
    case end
    /// The date a paused countdown was paused at.
    case since
    /// The frozen time left of a paused countdown.
    case remaining
    /// The full length, for progress.
    case total
    /// A date passed to an operation, such as the `date` of ``StoredCountdown/paused(at:)``.
    case date
    /// The `format` number of the stored data.
    case format

    /// The field's name, as in the JSON shape.
    public var description: String { rawValue }
  }

  /// A date that is NaN or infinite.
  case nonFiniteDate(Field)
  /// A date outside ``WallClockTimeline/supportedDates`` (±100,000 years around 2001-01-01).
  case dateOutOfRange(Field, Date)
  /// A total that is negative.
  case negativeTotal(Duration)
  /// A duration longer than ``StoredCountdown/maximumDuration`` either way.
  case durationOutOfRange(Field, Duration)
  /// A duration whose attosecond part is not below one second in magnitude.
  case invalidAttoseconds(Field, Int64)
  /// A `format` number this version does not read.
  case unsupportedFormat(Int)
  /// A `state` other than `running`, `paused` or `finished`.
  case unknownState(String)

  /// What went wrong and what to do about it.
  public var description: String {
    switch self {
    case .nonFiniteDate(let field):
      return "The stored countdown's \(field) date is not a finite time (NaN or infinity); the data is damaged. "
        + "Discard it, or store the countdown again from a valid date."
    case .dateOutOfRange(let field, let date):
      return "The stored countdown's \(field) date lies \(date.timeIntervalSinceReferenceDate) seconds from "
        + "2001-01-01, outside the supported ±100,000 years. Check the unit of the value: stored dates are "
        + "Unix time in seconds."
    case .negativeTotal(let total):
      return "The stored countdown's total is \(total); a total is a length and cannot be negative. Store a "
        + "positive total, or none."
    case .durationOutOfRange(let field, let duration):
      return "The stored countdown's \(field) of \(duration) exceeds the supported ±200,000 years; the data is "
        + "damaged or in the wrong unit."
    case .invalidAttoseconds(let field, let attoseconds):
      return "The stored countdown's \(field) has an attosecond part of \(attoseconds), which is not below one "
        + "second (10^18) in magnitude; write whole seconds in \"seconds\"."
    case .unsupportedFormat(let format):
      return "The stored countdown has format \(format); this version reads format 1. It was written by a "
        + "newer version: update, or store it again."
    case .unknownState(let state):
      return "The stored countdown's state is \"\(state)\"; expected \"running\", \"paused\" or \"finished\"."
    }
  }
}

extension StoredCountdownError: LocalizedError {
  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
