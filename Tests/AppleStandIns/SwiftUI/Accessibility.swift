// STAND-IN, NOT APPLE'S SWIFTUI (nor its Accessibility framework): VoiceOver's value and announcements,
// as the documentation's examples use them. Nothing is said. See ../README.md.
#if os(Linux)
  /// Notifications to assistive technologies (stand-in of `AccessibilityNotification`).
  public enum AccessibilityNotification {
    /// Something for VoiceOver to say (stand-in of `AccessibilityNotification.Announcement`).
    public struct Announcement {
      let text: String
      /// An announcement of `announcement`.
      public init(_ announcement: String) { text = announcement }
      /// Tells assistive technologies.
      public func post() {}
    }
  }

  extension View {
    /// What VoiceOver reads as the view's value.
    public func accessibilityValue<S: StringProtocol>(_ valueDescription: S) -> ModifiedContent<Self> {
      ModifiedContent(content: self)
    }
  }
#endif
