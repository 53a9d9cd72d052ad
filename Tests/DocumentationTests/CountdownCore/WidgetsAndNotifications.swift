// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's article on widgets and notifications, byte
// for byte: keep the two in step (.ci/check-doc-blocks). The tests run them.
import CountdownCore
import Foundation
import Testing

@Suite struct ChangeScheduleExamples {
  @Test func onTheMonotonicClock() {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WidgetsAndNotifications.md
    let start = ContinuousClock.now
    let turn = Countdown(duration: .seconds(3), startingAt: start)
    for change in turn.changes(of: .seconds, from: start, through: start + .seconds(10)) {
      print(start.duration(to: change.at), change.value)
    }
    // 0.0 seconds 3.0 seconds
    // 1.0 seconds 2.0 seconds
    // 2.0 seconds 1.0 seconds
    // 3.0 seconds 0.0 seconds
    // end docs
    let listed = turn.changes(of: .seconds, from: start, through: start + .seconds(10)).map {
      "\(start.duration(to: $0.at)) \($0.value)"
    }
    #expect(
      Array(listed) == [
        "0.0 seconds 3.0 seconds", "1.0 seconds 2.0 seconds", "2.0 seconds 1.0 seconds", "3.0 seconds 0.0 seconds",
      ])
  }
}

#if os(Linux)
  import SwiftUI
  import UserNotifications
  import WidgetKit

  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WidgetsAndNotifications.md
  struct FittingEntry: TimelineEntry {
    let date: Date
    /// The time left as the coarse display shows it; nil when there is no order to show.
    let left: Duration?
  }

  struct FittingWindowProvider: TimelineProvider {
    func placeholder(in context: Context) -> FittingEntry {
      FittingEntry(date: Date(), left: .seconds(7_200))
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (FittingEntry) -> Void) {
      completion(timeline(from: Date()).entries.first ?? placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<FittingEntry>) -> Void) {
      completion(timeline(from: Date()))
    }

    private func timeline(from now: Date) -> Timeline<FittingEntry> {
      guard let order = OrderStore.shared.nextOrder() else {
        return Timeline(entries: [FittingEntry(date: now, left: nil)], policy: .never)
      }
      do {
        let changes = try AdaptiveDisplay.coarse.changes(
          until: order.fittingEndsAt, from: now, through: now.addingTimeInterval(86_400), limit: 100)
        let entries = changes.map { FittingEntry(date: $0.at, left: $0.value) }
        return Timeline(entries: entries, policy: .atEnd)
      } catch {
        // The stored date is NaN or absurd: show no time rather than a wrong one, and look again later.
        return Timeline(entries: [FittingEntry(date: now, left: nil)], policy: .after(now.addingTimeInterval(900)))
      }
    }
  }

  struct FittingWindowView: View {
    let entry: FittingEntry

    var body: some View {
      if let left = entry.left {
        Text(left, format: .countdown(.coarse))
      } else {
        Text("No fitting booked")
      }
    }
  }
  // end docs

  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WidgetsAndNotifications.md
  struct FittingTimerEntry: TimelineEntry {
    let date: Date
    /// What the plan shows from `date` on; nil when there is no order to show.
    let shown: WidgetTimelinePlan<Duration?>.Entry?
  }

  func fittingTimerTimeline(for order: Order, now: Date) -> Timeline<FittingTimerEntry> {
    // Half hours above an hour; below, no value: the system's own timer shows minutes and seconds.
    let hours = AdaptiveDisplay.coarse.map { $0 > .seconds(3_600) ? $0 : nil }
    do {
      let window = try StoredCountdown(state: .running(end: order.fittingEndsAt), total: .seconds(7_200))
      let plan = try window.widgetTimeline(of: hours, at: now, reloadsPerDay: 40)
      let entries = plan.entries.map { FittingTimerEntry(date: $0.date, shown: $0) }
      switch plan.reload {
      case .never: return Timeline(entries: entries, policy: .never)
      case .after(let date): return Timeline(entries: entries, policy: .after(date))
      }
    } catch {
      return Timeline(entries: [FittingTimerEntry(date: now, shown: nil)], policy: .after(now.addingTimeInterval(900)))
    }
  }

  struct FittingTimerView: View {
    let entry: FittingTimerEntry

    var body: some View {
      if let shown = entry.shown, shown.isFinished {
        Text("Window closed")
      } else if let hours = entry.shown?.value ?? nil {
        Text(hours, format: .countdown(.coarse))
      } else if let interval = entry.shown?.timerInterval {
        Text(timerInterval: interval, countsDown: true)
      } else {
        Text("No fitting booked")
      }
    }
  }
  // end docs

  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WidgetsAndNotifications.md
  func scheduleReminders(for order: Order, now: Date) async throws {
    let reminders: PhaseDisplay<String?> = .phases(
      nil, [.seconds(600): "10 minutes left", .seconds(60): "1 minute left", .zero: "The fitting window has closed"])
    let changes = try reminders.changes(until: order.fittingEndsAt, from: now, through: order.fittingEndsAt, limit: 64)
    for change in changes.dropFirst() {
      guard let message = change.value else { continue }
      let content = UNMutableNotificationContent()
      content.title = order.title
      content.body = message
      // Calendar triggers match whole seconds: round up, so that "1 minute left" is never early.
      let second = Date(timeIntervalSinceReferenceDate: change.at.timeIntervalSinceReferenceDate.rounded(.up))
      let components = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: second)
      let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
      let request = UNNotificationRequest(identifier: "order-\(order.id)-\(message)", content: content, trigger: trigger)
      try await UNUserNotificationCenter.current().add(request)
    }
  }
  // end docs

  /// The widget and notification examples, run against the stand-ins.
  @Suite(.serialized) struct WidgetsAndNotificationsExamples {
    @Test func aDayOfTheMarketplaceWidgetIs63Entries() async {
      OrderStore.shared.setNextOrder(Order(id: 1, title: "Fitting: Ada L.", fittingEndsAt: Date().addingTimeInterval(7_200)))
      defer { OrderStore.shared.setNextOrder(nil) }
      let shown = await withCheckedContinuation { continuation in
        FittingWindowProvider().getTimeline(in: TimelineProviderContext(isPreview: false)) {
          continuation.resume(returning: $0.entries.map(\.left))
        }
      }
      #expect(shown.count == 63)
      #expect(shown.first == .seconds(7_200) && shown.last == .zero)
    }

    @Test func aDateThatMakesNoSenseShowsNoTime() async {
      OrderStore.shared.setNextOrder(Order(id: 2, title: "", fittingEndsAt: Date(timeIntervalSince1970: .infinity)))
      defer { OrderStore.shared.setNextOrder(nil) }
      let shown = await withCheckedContinuation { continuation in
        FittingWindowProvider().getTimeline(in: TimelineProviderContext(isPreview: false)) {
          continuation.resume(returning: $0.entries.map(\.left))
        }
      }
      #expect(shown == [nil])
    }

    @Test func hoursThenTheSystemTimerWithoutReloads() {
      let now = Date()
      let order = Order(id: 5, title: "Fitting: Ada L.", fittingEndsAt: now.addingTimeInterval(7_200))
      let shown = fittingTimerTimeline(for: order, now: now).entries.compactMap(\.shown)
      #expect(shown.map(\.value) == [.seconds(7_200), .seconds(5_400), .some(nil), .some(nil)])
      #expect(shown.map(\.isFinished) == [false, false, false, true])
      let absurd = Order(id: 6, title: "", fittingEndsAt: Date(timeIntervalSinceReferenceDate: .nan))
      #expect(fittingTimerTimeline(for: absurd, now: now).entries.map(\.shown) == [nil])
    }

    @Test func remindersAreScheduledAtTheirChanges() async throws {
      let now = Date(timeIntervalSince1970: 1_800_000_000)
      let order = Order(id: 9, title: "Fitting: Ada L.", fittingEndsAt: now.addingTimeInterval(900.5))
      try await scheduleReminders(for: order, now: now)
      let requests = await UNUserNotificationCenter.current().pendingNotificationRequests().filter {
        $0.identifier.hasPrefix("order-9-")
      }
      #expect(requests.map(\.content.body) == ["10 minutes left", "1 minute left", "The fitting window has closed"])
      let dates = requests.compactMap { ($0.trigger as? UNCalendarNotificationTrigger)?.dateComponents }
        .compactMap { Calendar.current.date(from: $0) }
      #expect(dates == [301, 841, 901].map { now.addingTimeInterval($0) })
    }
  }
#endif
