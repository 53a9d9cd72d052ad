import CountdownCore

/// A monotonic instant for tests: a plain offset from an arbitrary origin, built without reading a clock.
struct TestInstant: InstantProtocol, CustomStringConvertible {
  var offset: Duration

  init(_ offset: Duration = .zero) {
    self.offset = offset
  }

  /// The test clock's origin.
  static let zero = TestInstant(.zero)

  static func seconds(_ seconds: Double) -> TestInstant {
    TestInstant(.seconds(seconds))
  }

  func advanced(by duration: Duration) -> TestInstant {
    TestInstant(offset + duration)
  }

  func duration(to other: TestInstant) -> Duration {
    other.offset - offset
  }

  static func < (lhs: TestInstant, rhs: TestInstant) -> Bool {
    lhs.offset < rhs.offset
  }

  static func + (lhs: TestInstant, rhs: Duration) -> TestInstant {
    lhs.advanced(by: rhs)
  }

  static func - (lhs: TestInstant, rhs: Duration) -> TestInstant {
    lhs.advanced(by: .zero - rhs)
  }

  var description: String { "t=\(offset)" }
}
