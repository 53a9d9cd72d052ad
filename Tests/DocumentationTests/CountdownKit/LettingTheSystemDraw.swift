// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's article on letting the system draw, byte for
// byte: keep the two in step (.ci/check-doc-blocks). LettingTheSystemDrawTests runs the schedule through
// SwiftUI's `TimelineSchedule` requirement and checks it against the engine.
#if os(Linux)
  import CountdownKit
  import SwiftUI

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/LettingTheSystemDraw.md
  /// An order's fitting window as the marketplace widget words it: "2 hours", "1.5 hours", "45 min".
  struct FittingWindow: View {
    let schedule: CountdownChangeSchedule<AdaptiveDisplay>

    var body: some View {
      // Redrawn when the words change, and at no other time.
      TimelineView(schedule) { context in
        Text(schedule.value(at: context.date), format: .countdown(.coarse))
      }
    }
  }
  // end docs

  /// The article's view for an order, as the article makes it.
  func fittingWindow(for order: Order) throws -> some View {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/LettingTheSystemDraw.md
    let window = FittingWindow(schedule: try AdaptiveDisplay.coarse.changeSchedule(until: order.fittingEndsAt))
    // end docs
    return window
  }

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/LettingTheSystemDraw.md
  /// The same window counted by the system, in its timer format ("1:59:59"): no app code runs at all.
  struct FittingWindowTimer: View {
    let order: Order

    var body: some View {
      VStack {
        Text(timerInterval: order.fittingEndsAt.addingTimeInterval(-7_200)...order.fittingEndsAt)
        ProgressView(timerInterval: order.fittingEndsAt.addingTimeInterval(-7_200)...order.fittingEndsAt)
      }
    }
  }
  // end docs

  /// The dates a `TimelineView` would ask `schedule` for, from `start`, in `mode`: at most `limit`.
  func timelineDates<Schedule: TimelineSchedule>(
    of schedule: Schedule, from start: Date, lowFrequency: Bool, limit: Int
  ) -> [Date] {
    Array(schedule.entries(from: start, mode: lowFrequency ? .lowFrequency : .normal).prefix(limit))
  }
#endif
