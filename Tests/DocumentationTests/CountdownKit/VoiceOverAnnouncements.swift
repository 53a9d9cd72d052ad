// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's article on VoiceOver announcements, byte for
// byte: keep the two in step (.ci/check-doc-blocks). The tests run the announcer's example and check
// its comments.
import CountdownKit
import Foundation
import Testing

@Suite struct VoiceOverAnnouncementsExamples {
  @Test func aMinuteAndAHalfSaysFourThings() {
    var said: [String] = []
    func print(_ second: Int, _ text: String) { said.append("\(second) \(text)") }
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/VoiceOverAnnouncements.md
    let english = CountdownFormatStyle(.spoken, locale: Locale(identifier: "en_US"))
    var announcer = CountdownAnnouncer<ContinuousClock.Instant>(policy: AnnouncementPolicy(style: english))
    let start = ContinuousClock.now
    let countdown = Countdown(duration: .seconds(65), startingAt: start)
    for second in 0...70 {
      if let announcement = announcer.update(countdown, at: start + .seconds(second)) {
        print(second, announcement.text)
      }
    }
    // 5 1 minute left
    // 35 30 seconds left
    // 55 10 seconds left
    // 65 Time is up
    // end docs
    #expect(said == ["5 1 minute left", "35 30 seconds left", "55 10 seconds left", "65 Time is up"])
    #expect(announcer.accessibilityValue == "5 seconds over")
  }
}

#if os(Linux)
  import SwiftUI

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/VoiceOverAnnouncements.md
  struct FittingWindowLabel: View {
    static let policy = AnnouncementPolicy(milestones: [.seconds(3_600), .seconds(1_800), .seconds(600), .seconds(60)])
    @State private var window: CountdownModel<CombinedDisplay<AdaptiveDisplay, PhaseDisplay<Int>>, ContinuousClock>
    @State private var announcer = CountdownAnnouncer<ContinuousClock.Instant>(policy: Self.policy)

    init(engine: CountdownEngine<ContinuousClock>, order: Order) throws {
      // The coarse text changes every minute below an hour; the milestones wake the engine too.
      let display = AdaptiveDisplay.coarse.combined(with: Self.policy.milestoneDisplay)
      _window = State(initialValue: try CountdownModel(engine: engine, until: order.fittingEndsAt, display: display))
    }

    var body: some View {
      Text(window.value?.first ?? .zero, format: .countdown(.coarse))
        .accessibilityValue(announcer.accessibilityValue ?? "")
        .onChange(of: window.snapshot) {
          guard let snapshot = window.snapshot else { return }
          if let announcement = announcer.update(snapshot) {
            AccessibilityNotification.Announcement(announcement.text).post()
          }
        }
    }
  }
  // end docs
#endif
