// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's Rings article, byte for byte: keep the two in
// step (.ci/check-doc-blocks). The tests check what the comments in them claim.
import CountdownCore
import Foundation
import Testing

@Suite struct RingsExamples {
  /// The geometry of a snapshot's ring at `displayScale`.
  func ring(for snapshot: CountdownSnapshot<Duration, ContinuousClock.Instant>, displayScale: Double) -> RingGeometry {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Rings.md
    let ring = RingGeometry(progress: snapshot.progress ?? 0, diameter: 48, lineWidth: 4, scale: displayScale)
    // end docs
    return ring
  }

  @Test func svgAndSteps() {
    let start = ContinuousClock.now
    let snapshot = Countdown(duration: .seconds(8), startingAt: start).snapshot(at: start + .seconds(2), display: .seconds)
    let ring = ring(for: snapshot, displayScale: 3)
    #expect(ring.strokeEnd > 0.74 && ring.strokeEnd < 0.76)
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Rings.md
    let svg = RingSVG(dot: RingSVG.Dot()).render(ring, label: "0:06", progressColor: "#ff9500")
    // end docs
    #expect(svg.hasPrefix("<svg") && svg.contains("0:06"))
    let displayScale = 3.0
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Rings.md
    let steps = RingGeometry.visibleSteps(diameter: 48, lineWidth: 4, scale: displayScale)
    // Show the countdown with the display `.progress(steps: steps, total: .seconds(8))`.
    // end docs
    #expect(steps == 415)
  }
}

#if os(Linux)
  import SwiftUI

  /// A ring drawn in SwiftUI, as the Rings article draws it.
  struct RingsArticleRing: View {
    let ring: RingGeometry
    let phaseColor: Color

    var body: some View {
      // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Rings.md
      Circle()
        .inset(by: ring.lineWidth / 2)
        .trim(from: 0, to: ring.strokeEnd)
        .stroke(phaseColor, style: StrokeStyle(lineWidth: ring.lineWidth, lineCap: .round))
        .rotationEffect(.degrees(-90))
        .scaleEffect(x: ring.isClockwise ? 1 : -1)  // mirror for a counterclockwise ring
        .frame(width: ring.diameter, height: ring.diameter)
      // end docs
    }
  }
#endif
