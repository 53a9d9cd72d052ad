// An instant type for the core's fuzz targets (Fuzz/run).

/// An instant of a clock the fuzzer moves: a duration since an arbitrary origin.
struct FuzzInstant: InstantProtocol {
  var offset: Duration
  func advanced(by duration: Duration) -> FuzzInstant { FuzzInstant(offset: offset + duration) }
  func duration(to other: FuzzInstant) -> Duration { other.offset - offset }
  static func < (lhs: FuzzInstant, rhs: FuzzInstant) -> Bool { lhs.offset < rhs.offset }
}
