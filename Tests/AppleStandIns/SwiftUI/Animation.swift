// STAND-IN, NOT APPLE'S SWIFTUI: animations and timeline views, as the documentation's examples use
// them. Nothing moves. See ../README.md.
#if os(Linux)
  /// How a change is animated (stand-in of SwiftUI's `Animation`).
  public struct Animation: Equatable, Sendable {
    let name: String
    let duration: TimeInterval?
    /// The default animation.
    public static let `default` = Animation(name: "default", duration: nil)
    /// Constant speed for `duration` seconds.
    public static func linear(duration: TimeInterval) -> Animation { Animation(name: "linear", duration: duration) }
  }

  /// Runs `body`, animating the changes it makes with `animation` (stand-in of SwiftUI's `withAnimation`).
  public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result
  {
    try body()
  }

  /// A mode of operation for timeline schedule updates (stand-in of SwiftUI's `TimelineScheduleMode`).
  public enum TimelineScheduleMode: Sendable {
    /// Updates at the schedule's natural cadence.
    case normal
    /// Updates at a reduced rate: only "major" updates, such as once a minute for a timer.
    case lowFrequency
  }

  /// A type that provides a sequence of dates for use as a schedule (stand-in of SwiftUI's
  /// `TimelineSchedule`, with its requirements as Apple declares them).
  public protocol TimelineSchedule {
    /// An alias for the timeline schedule update mode.
    typealias Mode = TimelineScheduleMode
    /// The sequence of dates within a schedule.
    associatedtype Entries: Sequence where Self.Entries.Element == Date
    /// Provides a sequence of dates, in ascending order, starting around `startDate`.
    func entries(from startDate: Date, mode: Self.Mode) -> Self.Entries
  }

  /// A pausable schedule of dates updating at a frequency no more quickly than the provided interval
  /// (stand-in of SwiftUI's `AnimationTimelineSchedule`).
  public struct AnimationTimelineSchedule: TimelineSchedule, Sendable {
    let minimumInterval: Double?
    let paused: Bool

    /// A schedule updating no more often than every `minimumInterval` seconds (`nil`: the system's
    /// choice); none while `paused`.
    public init(minimumInterval: Double? = nil, paused: Bool = false) {
      self.minimumInterval = minimumInterval
      self.paused = paused
    }

    /// The dates of an animation schedule (here: every `minimumInterval`, or every 1/60 s).
    public struct Entries: Sequence, IteratorProtocol, Sendable {
      var upcoming: Date?
      let interval: TimeInterval
      /// The next date.
      public mutating func next() -> Date? {
        defer { upcoming = upcoming?.addingTimeInterval(interval) }
        return upcoming
      }
    }

    /// Entries at the frequency of the animation schedule; none in `.lowFrequency` mode or while paused.
    public func entries(from start: Date, mode: TimelineScheduleMode) -> AnimationTimelineSchedule.Entries {
      Entries(upcoming: paused || mode == .lowFrequency ? nil : start, interval: minimumInterval ?? 1.0 / 60)
    }
  }

  extension TimelineSchedule where Self == AnimationTimelineSchedule {
    /// Every frame.
    public static var animation: AnimationTimelineSchedule {
      AnimationTimelineSchedule(minimumInterval: nil, paused: false)
    }
    /// Every frame, at most every `minimumInterval` seconds; none while `paused`.
    public static func animation(minimumInterval: Double? = nil, paused: Bool = false) -> AnimationTimelineSchedule {
      AnimationTimelineSchedule(minimumInterval: minimumInterval, paused: paused)
    }
  }

  /// What a timeline view's content is drawn for (stand-in of SwiftUI's `TimelineViewDefaultContext`).
  public struct TimelineViewDefaultContext {
    /// The date the frame is for.
    public let date: Date
  }

  /// A view redrawn on a schedule (stand-in of SwiftUI's `TimelineView`).
  public struct TimelineView<Schedule: TimelineSchedule, Content: View>: View {
    let schedule: Schedule
    let content: (TimelineViewDefaultContext) -> Content
    /// A view that draws `content` for each date of `schedule`.
    public init(_ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content) {
      self.schedule = schedule
      self.content = content
    }
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  extension View {
    /// Runs `action` while the view is shown, again whenever `value` changes; cancels it when the
    /// view goes away or before running it again.
    public func task<T: Equatable>(
      id value: T, priority: TaskPriority = .userInitiated,
      _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> ModifiedContent<Self> { ModifiedContent(content: self) }
  }

  extension Color {
    /// Yellow.
    public static let yellow = Color(name: "yellow")
    /// Blue.
    public static let blue = Color(name: "blue")
    /// Purple.
    public static let purple = Color(name: "purple")
    /// Gray.
    public static let gray = Color(name: "gray")
  }
#endif
