// STAND-IN, NOT APPLE'S ACTIVITYKIT: the few declarations the documentation's Live Activity examples
// use, with Apple's signatures, so that those examples compile on Linux. No activity is shown and no
// push is sent. See ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does

  /// A Live Activity's fixed data and the type of its changing content (stand-in of
  /// `ActivityAttributes`).
  public protocol ActivityAttributes: Decodable, Encodable {
    /// What changes while the activity runs.
    associatedtype ContentState: Decodable, Encodable, Hashable
  }

  /// An activity's content and the date it stops being current (stand-in of `ActivityContent`).
  public struct ActivityContent<State: Decodable & Encodable & Hashable>: Hashable {
    /// The content.
    public let state: State
    /// When the system considers the content out of date (`context.isStale` in the views).
    public let staleDate: Date?
    /// How the system ranks the activity among others.
    public let relevanceScore: Double
    /// Content that is current until `staleDate`.
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
      self.state = state
      self.staleDate = staleDate
      self.relevanceScore = relevanceScore
    }
  }

  /// How an activity is updated remotely (stand-in of `PushType`).
  public struct PushType: Equatable, Sendable {
    let rawValue: String
    /// By push notifications to the activity's push token.
    public static let token = PushType(rawValue: "token")
  }

  /// When an ended activity leaves the Lock Screen (stand-in of `ActivityUIDismissalPolicy`).
  public struct ActivityUIDismissalPolicy: Hashable, Sendable {
    let date: Date?
    let immediately: Bool
    /// When the system decides: up to 4 hours.
    public static let `default` = ActivityUIDismissalPolicy(date: nil, immediately: false)
    /// At once.
    public static let immediate = ActivityUIDismissalPolicy(date: nil, immediately: true)
    /// At `date`, at most 4 hours after the end.
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy {
      ActivityUIDismissalPolicy(date: date, immediately: false)
    }
  }

  /// A Live Activity (stand-in of ActivityKit's `Activity`).
  public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    /// The activity's identifier.
    public let id = UUID().uuidString
    /// Its fixed data.
    public let attributes: Attributes
    /// Its current content.
    public private(set) var content: ActivityContent<Attributes.ContentState>
    /// The token the server pushes updates to (`nil` until the system has one).
    public var pushToken: Data? { nil }

    init(attributes: Attributes, content: ActivityContent<Attributes.ContentState>) {
      self.attributes = attributes
      self.content = content
    }

    /// Starts an activity showing `content`.
    public static func request(
      attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
      Activity(attributes: attributes, content: content)
    }

    /// Shows `content` from now on.
    public func update(_ content: ActivityContent<Attributes.ContentState>) async { self.content = content }

    /// Ends the activity, showing `content` (if given) until `dismissalPolicy` removes it.
    public func end(
      _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default
    ) async {
      if let content { self.content = content }
    }
  }
#endif
