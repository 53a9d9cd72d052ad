// STAND-IN, NOT APPLE'S USERNOTIFICATIONS: the few declarations the documentation's examples use,
// with Apple's signatures, so that those examples compile on Linux. Nothing is ever delivered. See
// ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does

  /// What a notification shows (stand-in of `UNNotificationContent`).
  open class UNNotificationContent: @unchecked Sendable {
    var storedTitle = ""
    var storedBody = ""
    /// The title.
    open var title: String { storedTitle }
    /// The text.
    open var body: String { storedBody }
    /// Empty content.
    public init() {}
  }

  /// Content being filled in (stand-in of `UNMutableNotificationContent`).
  open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    /// The title.
    open override var title: String {
      get { storedTitle }
      set { storedTitle = newValue }
    }
    /// The text.
    open override var body: String {
      get { storedBody }
      set { storedBody = newValue }
    }
  }

  /// When a notification is delivered (stand-in of `UNNotificationTrigger`).
  open class UNNotificationTrigger: @unchecked Sendable {
    /// Whether it repeats.
    public let repeats: Bool
    init(repeats: Bool) { self.repeats = repeats }
  }

  /// Delivers when the date matches `dateComponents` (stand-in of `UNCalendarNotificationTrigger`).
  open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The components to match.
    public let dateComponents: DateComponents
    /// A trigger for the date matching `dateComponents`.
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
      self.dateComponents = dateComponents
      super.init(repeats: repeats)
    }
  }

  /// A notification to deliver (stand-in of `UNNotificationRequest`).
  open class UNNotificationRequest: @unchecked Sendable {
    /// Identifies the request, to replace or remove it.
    public let identifier: String
    /// What it shows.
    public let content: UNNotificationContent
    /// When it is delivered.
    public let trigger: UNNotificationTrigger?
    /// A request.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
      self.identifier = identifier
      self.content = content
      self.trigger = trigger
    }
  }

  /// The app's notifications (stand-in of `UNUserNotificationCenter`).
  open class UNUserNotificationCenter: @unchecked Sendable {
    private static let shared = UNUserNotificationCenter()
    private let pending = NSLock()
    private var requests: [UNNotificationRequest] = []
    /// The app's notification center.
    open class func current() -> UNUserNotificationCenter { shared }
    /// Schedules `request`, replacing a pending one with the same identifier.
    open func add(_ request: UNNotificationRequest) async throws {
      pending.withLock {
        requests.removeAll { $0.identifier == request.identifier }
        requests.append(request)
      }
    }
    /// The requests not delivered yet.
    open func pendingNotificationRequests() async -> [UNNotificationRequest] { pending.withLock { requests } }
    /// Removes pending requests.
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
      pending.withLock { requests.removeAll { identifiers.contains($0.identifier) } }
    }
  }
#endif
