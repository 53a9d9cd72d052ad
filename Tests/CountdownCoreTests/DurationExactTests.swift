@testable import CountdownCore
import Testing

@Suite struct DurationExactTests {
  @Test(arguments: [
    (6_500, 7, 6), (6_000, 6, 6), (-500, 0, -1), (-1_000, -1, -1), (0, 0, 0), (1, 1, 0),
  ])
  func roundsToWholeSeconds(milliseconds: Int, up: Int, down: Int) {
    let duration = Duration.milliseconds(milliseconds)
    #expect(duration.rounded(to: .seconds(1), .up) == .seconds(up))
    #expect(duration.rounded(to: .seconds(1), .down) == .seconds(down))
  }

  @Test func attosecondCountRoundTrips() {
    for duration in [Duration.zero, .seconds(-3), .milliseconds(-1_500), .nanoseconds(7), .seconds(Int64.max / 2)] {
      #expect(Duration(attosecondCount: duration.attosecondCount) == duration)
    }
  }

  @Test func multipleClampsInsteadOfOverflowing() {
    #expect(Duration.multiple(of: .seconds(1), count: Int128(Int64.max) * 4) == .max)
    #expect(Duration.multiple(of: .seconds(1), count: -Int128(Int64.max) * 4) == .min)
  }
}
