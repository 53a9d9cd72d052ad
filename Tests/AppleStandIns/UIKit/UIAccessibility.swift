// STAND-IN, NOT APPLE'S UIKIT: VoiceOver's notifications, as the documentation's examples post them.
// Nothing is said. See ../README.md.
#if os(Linux)
  /// Assistive technologies such as VoiceOver (stand-in of `UIAccessibility`).
  public enum UIAccessibility {
    /// Something to tell assistive technologies (stand-in of `UIAccessibility.Notification`).
    public struct Notification: Hashable, Sendable {
      let rawValue: UInt32
      /// Something to say: the argument is the text.
      public static let announcement = Notification(rawValue: 1_008)
    }

    /// Tells assistive technologies `notification`, with `argument` (for an announcement, the text).
    public static func post(notification: Notification, argument: Any?) {}
  }
#endif
