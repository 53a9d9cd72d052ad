// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's Getting Started, byte for byte: keep the two
// in step (.ci/check-doc-blocks). The tests check what the comments in them claim.
import CountdownCore
import Foundation
import Testing

@Suite struct CoreGettingStartedExamples {
  @Test func aCountdownIsAValue() {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/GettingStarted.md
    let clock = ContinuousClock()
    let start = clock.now
    var turn = Countdown(duration: .seconds(8), startingAt: start)

    let left = turn.remaining(at: start + .seconds(3))          // 5 seconds
    let progress = turn.progress(at: start + .seconds(2))       // 0.75
    let finished = turn.isFinished(at: start + .seconds(8))     // true
    let overtime = turn.remaining(at: start + .seconds(10))     // -2 seconds: overtime
    // end docs
    #expect(left == .seconds(5) && progress == 0.75 && finished && overtime == .seconds(-2))

    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/GettingStarted.md
    turn = turn.paused(at: start + .seconds(3))       // 5 s left, frozen
    turn = turn.resumed(at: start + .seconds(60))     // 5 s left, running again
    turn = turn.extended(by: .seconds(10))            // 15 s left
    turn = turn.retargeted(to: start + .seconds(90))  // count to a new end
    // end docs
    #expect(turn.remaining(at: start + .seconds(60)) == .seconds(30))
  }

  @Test func aDisplaySaysWhatToShowAndWhenItChanges() {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/GettingStarted.md
    let display: RoundedDisplay = .seconds
    let shown = display.value(remaining: .milliseconds(6_500))        // 7 s: countdowns round up
    let next = display.nextChange(after: .milliseconds(6_500))        // 6 s
    // end docs
    #expect(shown == .seconds(7) && next == .seconds(6))
  }
}

#if os(Linux)
  import SwiftUI

  /// A snapshot shown as text and a ring, as Getting Started shows it.
  struct SnapshotView: View {
    let snapshot: CountdownSnapshot<Duration, ContinuousClock.Instant>
    @Environment(\.displayScale) private var displayScale

    var body: some View {
      // docs: Sources/CountdownCore/CountdownCore.docc/Articles/GettingStarted.md
      Text(snapshot.value, format: .countdown(.digital))
      Circle()
        .trim(from: 0, to: RingGeometry(progress: snapshot.progress ?? 0, diameter: 48, lineWidth: 4, scale: displayScale).strokeEnd)
        .stroke(style: StrokeStyle(lineWidth: 4, lineCap: .round))
        .rotationEffect(.degrees(-90))
      // end docs
    }
  }
#endif
