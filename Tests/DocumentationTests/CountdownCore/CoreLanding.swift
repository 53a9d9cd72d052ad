// swift-format-ignore-file
// The region below is the code of CountdownCore.docc's landing page, byte for byte: keep the two in
// step (.ci/check-doc-blocks).
import CountdownCore
import Foundation
import Testing

@Suite struct CoreLandingExamples {
  @Test func overview() {
    // docs: Sources/CountdownCore/CountdownCore.docc/CountdownCore.md
    let clock = ContinuousClock()
    let now = clock.now
    let countdown = Countdown(duration: .seconds(90), startingAt: now)
    let snapshot = countdown.snapshot(at: now, display: .seconds)
    let text = snapshot.value.formatted(.countdown(.digital, locale: Locale(identifier: "en")))   // "01:30"
    let next = RoundedDisplay.seconds.nextChange(after: snapshot.remaining)   // 89 seconds: the next visible change
    // end docs
    #expect(text == "01:30" && next == .seconds(89))
  }
}
