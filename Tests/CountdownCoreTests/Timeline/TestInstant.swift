/// An instant of a test clock: a `Duration` since an arbitrary origin, set by hand.
///
/// Lets tests build timelines with exact, deterministic instants instead of reading a real clock.
struct TestInstant: InstantProtocol, CustomStringConvertible {
  /// The time since the test clock's origin.
  var offset: Duration

  /// The instant `offset` after the origin.
  init(_ offset: Duration) {
    self.offset = offset
  }

  /// The test clock's origin.
  static let zero = TestInstant(.zero)

  func advanced(by duration: Duration) -> TestInstant {
    TestInstant(offset + duration)
  }

  func duration(to other: TestInstant) -> Duration {
    other.offset - offset
  }

  static func < (lhs: TestInstant, rhs: TestInstant) -> Bool {
    lhs.offset < rhs.offset
  }

  var description: String { "TestInstant(\(offset))" }
}
