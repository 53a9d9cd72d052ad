// No public name of CountdownCore, CountdownKit or CountdownTesting hides one of Apple's: this file
// imports them beside the stand-ins of SwiftUI, WidgetKit, ActivityKit, UIKit, QuartzCore and
// UserNotifications (Apple's signatures, Tests/AppleStandIns) and Observation, and uses Apple's names
// unqualified, as an app's widget or view does. Combine's names are checked beside CountdownCombine in
// CountdownCombineTests/NameClashTests.swift.
//
// Before `Timeline` was renamed `WallClockTimeline`, `getTimeline`'s `(Timeline<Entry>) -> Void` below
// did not compile: CountdownCore's type won over WidgetKit's ("type 'Entry' does not conform to protocol
// 'InstantProtocol'").
#if os(Linux)
  import ActivityKit
  import CountdownKit
  import CountdownTesting
  import Foundation
  import Observation
  import QuartzCore
  import SwiftUI
  import UIKit
  import UserNotifications
  import WidgetKit

  /// A widget's entry and provider, written as Apple's widget template writes them.
  struct ClashEntry: TimelineEntry {
    let date: Date
  }

  struct ClashProvider: TimelineProvider {
    func placeholder(in context: Context) -> ClashEntry { ClashEntry(date: Date()) }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (ClashEntry) -> Void) {
      completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void) {
      completion(Timeline(entries: [placeholder(in: context)], policy: .atEnd))
    }
  }

  /// A view and a Live Activity's attributes, with the names SwiftUI and ActivityKit give them.
  struct ClashView: View {
    var body: some View {
      TimelineView(.animation) { context in
        Text(context.date, format: .dateTime)
      }
    }
  }

  struct ClashAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
      let end: Date
    }
  }

  /// The names this file meets, as lists that NameClashTests checks (a file that imports both Swift
  /// Testing and UIKit asks for Testing's UIKit overlay, which the stand-in does not have).
  @MainActor enum NameClash {
    /// Apple's names, unqualified beside `import CountdownKit`, with the framework each must come from.
    static let apples: [(type: Any.Type, module: String)] = [
      (Timeline<ClashEntry>.self, "WidgetKit"),
      ((any TimelineEntry).self, "WidgetKit"),
      (TimelineReloadPolicy.self, "WidgetKit"),
      (TimelineProviderContext.self, "WidgetKit"),
      (TimelineView<AnimationTimelineSchedule, Text>.self, "SwiftUI"),
      ((any TimelineSchedule).self, "SwiftUI"),
      (TimelineViewDefaultContext.self, "SwiftUI"),
      (Animation.self, "SwiftUI"),
      (Text.self, "SwiftUI"),
      (ProgressView<EmptyView, EmptyView>.self, "SwiftUI"),
      (Activity<ClashAttributes>.self, "ActivityKit"),
      (ActivityContent<ClashAttributes.ContentState>.self, "ActivityKit"),
      (UILabel.self, "UIKit"),
      (CAShapeLayer.self, "QuartzCore"),
      (CATransaction.self, "QuartzCore"),
      (UNNotificationContent.self, "UserNotifications"),
      ((any Observable).self, "Observation"),
      (ObservationRegistrar.self, "Observation"),
    ]

    /// Runs the provider as WidgetKit would: the number of entries of its timeline.
    static func entriesOfATimeline() async -> Int {
      await withCheckedContinuation { continuation in
        ClashProvider().getTimeline(in: TimelineProviderContext(isPreview: false)) { timeline in
          continuation.resume(returning: timeline.entries.count)
        }
      }
    }

    /// Every public top-level name the three modules declare, unqualified beside Apple's frameworks,
    /// with the module it must come from. A name added to a module must be added here, where it meets
    /// Apple's names.
    static let ours: [String: (type: Any.Type, module: String)] = [
      "AdaptiveDisplay": (AdaptiveDisplay.self, "CountdownCore"),
      "AnnouncementPolicy": (AnnouncementPolicy.self, "CountdownCore"),
      "CombinedDisplay": (CombinedDisplay<AdaptiveDisplay, ProgressDisplay>.self, "CountdownCore"),
      "Countdown": (Countdown<ContinuousClock.Instant>.self, "CountdownCore"),
      "CountdownAnnouncement": (CountdownAnnouncement.self, "CountdownCore"),
      "CountdownAnnouncer": (CountdownAnnouncer<ContinuousClock.Instant>.self, "CountdownCore"),
      "CountdownChange": (CountdownChange<Date, Duration>.self, "CountdownCore"),
      "CountdownChangeSchedule": (CountdownChangeSchedule<AdaptiveDisplay>.self, "CountdownCore"),
      "CountdownChanges": (CountdownChanges<AdaptiveDisplay, ContinuousClock.Instant>.self, "CountdownCore"),
      "CountdownDisplay": ((any CountdownDisplay).self, "CountdownCore"),
      "CountdownFormatStyle": (CountdownFormatStyle.self, "CountdownCore"),
      "CountdownSnapshot": (CountdownSnapshot<Duration, ContinuousClock.Instant>.self, "CountdownCore"),
      "LiveActivityPlan": (LiveActivityPlan<Int>.self, "CountdownCore"),
      "MappedDisplay": (MappedDisplay<AdaptiveDisplay, Int>.self, "CountdownCore"),
      "MediaTime": (MediaTime.self, "CountdownCore"),
      "PhaseDisplay": (PhaseDisplay<Int>.self, "CountdownCore"),
      "ProgressDisplay": (ProgressDisplay.self, "CountdownCore"),
      "RingAnimationEvents": (RingAnimationEvents.self, "CountdownCore"),
      "RingAnimationPlan": (RingAnimationPlan<Int, ContinuousClock.Instant>.self, "CountdownCore"),
      "RingGeometry": (RingGeometry.self, "CountdownCore"),
      "RingSVG": (RingSVG.self, "CountdownCore"),
      "RoundedDisplay": (RoundedDisplay.self, "CountdownCore"),
      "ServerTimeEstimator": (ServerTimeEstimator<ContinuousClock.Instant>.self, "CountdownCore"),
      "StoredCountdown": (StoredCountdown.self, "CountdownCore"),
      "StoredCountdownError": (StoredCountdownError.self, "CountdownCore"),
      "WallClockTimeline": (WallClockTimeline<ContinuousClock.Instant>.self, "CountdownCore"),
      "WallClockTimelineError": (WallClockTimelineError.self, "CountdownCore"),
      "WidgetTimelinePlan": (WidgetTimelinePlan<Int>.self, "CountdownCore"),
      "BoardChange": (BoardChange<Int>.self, "CountdownKit"),
      "BoardChangeSequence": (BoardChangeSequence<Int, AdaptiveDisplay, ContinuousClock>.self, "CountdownKit"),
      "BoardObservation": (BoardObservation.self, "CountdownKit"),
      "BoardRow": (BoardRow<Int>.self, "CountdownKit"),
      "BoardValues": (BoardValues.self, "CountdownKit"),
      "CountdownBoard": (CountdownBoard<Int, AdaptiveDisplay, ContinuousClock>.self, "CountdownKit"),
      "CountdownEngine": (CountdownEngine<ContinuousClock>.self, "CountdownKit"),
      "CountdownHandle": (CountdownHandle<ContinuousClock>.self, "CountdownKit"),
      "CountdownHandleError": (CountdownHandleError.self, "CountdownKit"),
      "CountdownModel": (CountdownModel<AdaptiveDisplay, ContinuousClock>.self, "CountdownKit"),
      "CountdownRowModel": (CountdownRowModel<Int, AdaptiveDisplay, ContinuousClock>.self, "CountdownKit"),
      "CountdownSlot": (CountdownSlot<Int, AdaptiveDisplay, ContinuousClock>.self, "CountdownKit"),
      "Deadline": (Deadline.self, "CountdownKit"),
      "EngineStatistics": (EngineStatistics.self, "CountdownKit"),
      "InvalidDeadline": (InvalidDeadline.self, "CountdownKit"),
      "MediaClock": (MediaClock.self, "CountdownKit"),
      "FollowingCountdownModel": (FollowingCountdownModel<AdaptiveDisplay, ContinuousClock>.self, "CountdownKit"),
      "RingAnimationModel": (RingAnimationModel<PhaseDisplay<Int>, ContinuousClock>.self, "CountdownKit"),
      "ReloadGatherer": (ReloadGatherer<BoardRow<Int>>.self, "CountdownKit"),
      "SnapshotDelivery": (SnapshotDelivery.self, "CountdownKit"),
      "SystemWallClock": (SystemWallClock.self, "CountdownKit"),
      "WallClock": ((any WallClock).self, "CountdownKit"),
      "ManualClock": (ManualClock.self, "CountdownTesting"),
    ]
  }
#endif
