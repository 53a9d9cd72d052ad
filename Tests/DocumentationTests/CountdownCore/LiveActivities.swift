// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's article on Live Activities, byte for byte: keep
// the two in step (.ci/check-doc-blocks). The tests run the plan's example and check its comments.
import CountdownCore
import Foundation
import Testing

// docs: Sources/CountdownCore/CountdownCore.docc/Articles/LiveActivities.md
enum Urgency: String, Codable, Hashable, Sendable {
  case calm, hurry, closing
}

/// Calm, then hurry from 30 minutes left, then closing from 5.
let fittingUrgency: PhaseDisplay<Urgency> = .phases(.calm, [.seconds(1_800): .hurry, .seconds(300): .closing])
// end docs

@Suite struct LiveActivitiesExamples {
  @Test func aTwoHourWindowIsThreeUpdatesAndAnEnd() throws {
    var said: [String] = []
    func print(_ items: Any...) { said.append(items.map { "\($0)" }.joined(separator: " ")) }
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/LiveActivities.md
    let now = Date()
    let window = try StoredCountdown(state: .running(end: now.addingTimeInterval(7_200)), total: .seconds(7_200))
    let plan = try window.liveActivity(of: fittingUrgency, at: now)
    func minutes(_ date: Date?) -> Int { Int(((date ?? now).timeIntervalSince(now) / 60).rounded()) }
    for update in plan.updates {
      print(minutes(update.date), update.state.value ?? .calm, minutes(update.staleDate))
    }
    // 0 calm 90
    // 90 hurry 115
    // 115 closing 120
    print(plan.ending.isBySystem, minutes(plan.ending.date), minutes(plan.ending.dismissalDate))
    // false 120 135
    // end docs
    #expect(said == ["0 calm 90", "90 hurry 115", "115 closing 120", "false 120 135"])
  }
}

#if os(Linux)
  import ActivityKit
  import SwiftUI

  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/LiveActivities.md
  struct FittingActivity: ActivityAttributes {
    typealias ContentState = LiveActivityPlan<Urgency>.ContentState
    let orderTitle: String
  }

  /// Starts the fitting window's Live Activity, and hands the rest of its plan to the server, which
  /// pushes each later update, and the end, at its date.
  func startFittingActivity(for order: Order, api: API) async throws {
    let window = try StoredCountdown(state: .running(end: order.fittingEndsAt), total: .seconds(7_200))
    let plan = try window.liveActivity(of: fittingUrgency, at: Date())
    guard let first = plan.updates.first else { return }  // over already: nothing to show
    _ = try Activity.request(
      attributes: FittingActivity(orderTitle: order.title),
      content: ActivityContent(state: first.state, staleDate: first.staleDate), pushType: .token)
    try await api.schedulePushes(of: plan, for: order.id)
  }
  // end docs

  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/LiveActivities.md
  struct FittingActivityView: View {
    let state: FittingActivity.ContentState
    /// The activity context's `isStale`: past the stale date, `value` and `isFinished` may be out of date.
    let isStale: Bool

    var body: some View {
      VStack {
        if let interval = state.timerInterval {
          Text(timerInterval: interval, countsDown: true)
          ProgressView(timerInterval: interval, countsDown: true)
        } else if let left = state.pausedRemaining {
          Text(left, format: .countdown(.digital))
        }
        if !isStale, state.isFinished {
          Text("Fitting window closed")
        } else if !isStale, let urgency = state.value, urgency != .calm {
          Text(urgency == .hurry ? "Hurry" : "Closing soon")
        }
      }
    }
  }
  // end docs

  /// The Live Activity example, run against the stand-ins.
  @Suite struct LiveActivitiesStandInExamples {
    @Test func startingAnActivityNeedsNoNetwork() async throws {
      let order = Order(id: 3, title: "Fitting: Ada L.", fittingEndsAt: Date().addingTimeInterval(5_000))
      try await startFittingActivity(for: order, api: API())
      let over = Order(id: 4, title: "", fittingEndsAt: Date().addingTimeInterval(-60))
      try await startFittingActivity(for: over, api: API())
    }
  }
#endif
