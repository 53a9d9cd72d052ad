/// Something to say to VoiceOver users about a countdown: post ``text`` as an announcement.
///
/// ```swift
/// AccessibilityNotification.Announcement(announcement.text).post()               // SwiftUI
/// UIAccessibility.post(notification: .announcement, argument: announcement.text)  // UIKit
/// ```
public struct CountdownAnnouncement: Hashable, Sendable {
  /// Why it is said.
  public enum Kind: Hashable, Sendable {
    /// A milestone was reached (the latest, when several were at once); the text says the time left.
    case milestone(Duration)
    /// The countdown reached zero.
    case finished
  }

  /// Why it is said.
  public var kind: Kind
  /// What to say, in the policy's language: "4 minutes, 58 seconds left", "Time is up".
  public var text: String

  /// An announcement of `text`.
  public init(kind: Kind, text: String) {
    self.kind = kind
    self.text = text
  }
}
