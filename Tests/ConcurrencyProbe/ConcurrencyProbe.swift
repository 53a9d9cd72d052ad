import CountdownKit
import Foundation
import Observation

// A probe app in Swift 6 mode with complete concurrency checking (and warnings as errors, see Package.swift): it
// uses the observable models, a board, change schedules, plans and the stored form the way an app does, across the
// main actor, an actor and detached tasks, so that any Sendable or isolation problem in the library's API shows up
// as a build failure here. `swift run ConcurrencyProbe` also runs it: it counts a short countdown down for real and
// prints what its "views" saw.

/// A display of the app's own: a colour by time left.
enum Urgency: Sendable, Hashable, Codable {
  case calm, hurry, late

  /// Calm, then hurry in the last 3 seconds, late after the end.
  static let phases = PhaseDisplay(
    initial: Urgency.calm, phases: [.init(startsAt: .seconds(3), value: .hurry), .init(startsAt: .zero, value: .late)])
}

/// What the order list's screen holds: one engine, one board, a row model per visible row.
@MainActor final class OrderScreen {
  let engine: CountdownEngine<ContinuousClock>
  let board: CountdownBoard<Int, AdaptiveDisplay, ContinuousClock>
  private(set) var rows: [CountdownRowModel<Int, AdaptiveDisplay, ContinuousClock>] = []
  private(set) var finished: [Int] = []
  private var finishing: BoardObservation?

  init(engine: CountdownEngine<ContinuousClock>) {
    self.engine = engine
    board = engine.board(of: Int.self, display: .adaptive)
    finishing = board.onFinish { [weak self] id in self?.finished.append(id) }
  }

  /// Shows rows `ids`, as a list scrolled to them does.
  func showRows(_ ids: [Int]) {
    rows = ids.map { id in
      let row = CountdownRowModel(board: board)
      row.show(id)
      return row
    }
  }

  /// What the row views read, tracked the way SwiftUI tracks a body.
  func render(onChange: @escaping @Sendable () -> Void) -> [String] {
    withObservationTracking {
      rows.map { row in
        guard let left = row.value else { return "-" }
        return row.isFinished ? "closed" : left.formatted(.countdown(.coarse, locale: Locale(identifier: "en")))
      }
    } onChange: {
      onChange()
    }
  }
}

/// Where the server's updates arrive: off the main actor.
actor OrderSync {
  private let board: CountdownBoard<Int, AdaptiveDisplay, ContinuousClock>

  init(board: CountdownBoard<Int, AdaptiveDisplay, ContinuousClock>) {
    self.board = board
  }

  /// Applies a page of deadlines from the server, stored as wall-clock facts.
  func apply(
    _ page: [Int: StoredCountdown], on timeline: WallClockTimeline<ContinuousClock.Instant>,
    at now: ContinuousClock.Instant
  ) {
    board.apply(
      .upserted(page.map { BoardRow(id: $0.key, countdown: $0.value.restored(at: now, on: timeline), at: now) }),
      asOf: now)
  }
}

@main enum ConcurrencyProbe {
  @MainActor static func main() async throws {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let screen = OrderScreen(engine: engine)
    let sync = OrderSync(board: screen.board)

    // Deadlines from the "server": stored forms, decoded in a detached task.
    let now = Date()
    let json = try JSONEncoder().encode([
      1: try StoredCountdown(end: now.addingTimeInterval(0.4), total: .seconds(2)),
      2: try StoredCountdown(end: now.addingTimeInterval(7_200), total: .seconds(7_200)),
      3: try StoredCountdown(state: .paused(remaining: .seconds(2_700), since: now), total: nil),
    ])
    let page = try await Task.detached { try JSONDecoder().decode([Int: StoredCountdown].self, from: json) }.value
    await sync.apply(page, on: engine.timeline, at: engine.now)
    screen.showRows([1, 2, 3])

    // A widget's schedule, computed off the main actor.
    let deadline = now.addingTimeInterval(7_200)
    let widget = try await Task.detached {
      try AdaptiveDisplay.coarse.changes(
        until: deadline, from: now, through: now.addingTimeInterval(86_400), limit: 100)
    }.value

    // Widget and Live Activity plans of the stored form, made off the main actor.
    let stored = try StoredCountdown(end: deadline, total: .seconds(7_200))
    let (widgetPlan, activityPlan) = try await Task.detached {
      (
        try stored.widgetTimeline(of: AdaptiveDisplay.coarse, at: now),
        try stored.liveActivity(of: Urgency.phases, at: now)
      )
    }.value

    // A ring animated by plans, one of them read in another task; an announcer fed on the main actor.
    var plans = 0
    let ring = RingAnimationModel(
      engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: engine.now), phases: Urgency.phases,
      ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3),
      mediaClock: MediaClock(seconds: { ProcessInfo.processInfo.systemUptime })
    ) { _ in plans += 1 }
    let segments = await Task.detached { [plan = ring.plan, media = ring.mediaPlan] in
      min(plan.segments.count, media.segments.count)
    }.value
    var announcer = CountdownAnnouncer<ContinuousClock.Instant>()
    _ = announcer.update(ring.plan.countdown, at: engine.now)

    // A single countdown's model with a display of the app's own, and its schedule.
    let urgency = RoundedDisplay.seconds.map { $0 > .seconds(10) ? Urgency.calm : $0 > .zero ? .hurry : .late }
    let countdown = Countdown(duration: .seconds(12), startingAt: engine.now)
    let turn = CountdownModel(engine: engine, countdown: countdown, display: urgency)
    let turnSchedule = Array(countdown.changes(of: urgency, from: engine.now, through: engine.now + .seconds(20)))

    // A date that moves, followed by a model: one date sent from another task into the sequence it
    // follows, then one pushed from a detached task.
    let auction = FollowingCountdownModel(engine: engine, display: RoundedDisplay.seconds)
    let (endDates, source) = AsyncStream.makeStream(of: Date?.self)
    auction.follow(endDates)
    await Task.detached { _ = source.yield(now.addingTimeInterval(30)) }.value
    while auction.value == nil { await Task.yield() }
    await Task.detached { await auction.update(to: now.addingTimeInterval(60)) }.value

    // The "views": re-rendered once per observation, until row 1 has finished.
    var renders = [screen.render {}]
    let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
    _ = screen.render { continuation.yield() }
    var iterator = changes.makeAsyncIterator()
    while screen.finished.isEmpty {
      await iterator.next()
      renders.append(screen.render { continuation.yield() })
    }
    print("rows: \(renders.map { $0.joined(separator: " | ") }.joined(separator: " → "))")
    print(
      "finished: \(screen.finished); widget entries: \(widget.count); turn: \(String(describing: turn.value)) of \(turnSchedule.map(\.value)); auction: \(String(describing: auction.value))"
    )
    print(
      "widget plan: \(widgetPlan.entries.count) entries, reload \(widgetPlan.reload); activity updates:"
        + " \(activityPlan.updates.count); ring plans: \(plans), \(segments) segments; said: \(announcer.accessibilityValue ?? "")"
    )
  }
}
