// swift-format-ignore-file
// The region below is code of CountdownKit.docc's article on VoiceOver announcements, byte for byte:
// keep the two in step (.ci/check-doc-blocks). Not in VoiceOverAnnouncements.swift: a file that imports
// UIKit must not import Testing (its UIKit overlay exists only on Apple platforms).
#if os(Linux)
  import CountdownKit
  import UIKit

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/VoiceOverAnnouncements.md
  @MainActor final class TurnTimeLabel: UILabel {
    private var announcer = CountdownAnnouncer<ContinuousClock.Instant>(policy: .standard)
    private var handle: CountdownHandle<ContinuousClock>?

    func start(_ countdown: Countdown<ContinuousClock.Instant>, on engine: CountdownEngine<ContinuousClock>) {
      let display = RoundedDisplay.seconds.combined(with: announcer.policy.milestoneDisplay)
      handle = engine.add(countdown, display: display) { [weak self] snapshot in
        guard let self else { return }
        text = snapshot.value.first.formatted(.countdown(.digital))
        let announcement = announcer.update(snapshot)
        accessibilityValue = announcer.accessibilityValue  // read when VoiceOver reaches the label
        if let announcement {
          UIAccessibility.post(notification: .announcement, argument: announcement.text)
        }
      }
    }
  }
  // end docs
#endif
