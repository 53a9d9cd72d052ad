#if os(Linux)
  import CountdownKit
  import CountdownTesting
  import Foundation
  import Testing

  /// The change schedule as SwiftUI's `TimelineView` reads it (through the stand-in's `TimelineSchedule`),
  /// the glue that makes it one, and the engine as its UIKit equivalent.
  @MainActor @Suite struct LettingTheSystemDrawTests {
    static let start = Date(timeIntervalSinceReferenceDate: 825_000_000)

    @Test func aTimelineViewGetsTheScheduleInBothModes() throws {
      let schedule = try RoundedDisplay.seconds.changeSchedule(until: Self.start.addingTimeInterval(150.5))
      let normal = timelineDates(of: schedule, from: Self.start, lowFrequency: false, limit: 1_000)
      #expect(normal == Array(schedule.entries(from: Self.start)) && normal.count == 152)
      let low = timelineDates(of: schedule, from: Self.start, lowFrequency: true, limit: 1_000)
      #expect(low == Array(schedule.entries(from: Self.start, minimumInterval: .seconds(60))))
      #expect(low.count == 4 && low.last == Self.start.addingTimeInterval(150.5))
    }

    @Test func theLibrarysGlueIsTheCodeCompiledHere() throws {
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      func glue(_ path: String) throws -> [String] {
        let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
          .components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("// glue: ") })
        let end = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// end glue" })
        return Array(lines[start...end])
      }
      let library = try glue("Sources/CountdownKit/SwiftUI/CountdownChangeSchedule+TimelineSchedule.swift")
      let copy = try glue("Tests/DocumentationTests/AppleGlue/CountdownChangeSchedule+TimelineSchedule.swift")
      #expect(library.count > 5 && library == copy)
    }

    /// UIKit has no `TimelineView`: the engine, given the same display and date, calls back with the
    /// same values at the same changes, never early and within its tolerance.
    @Test func theEngineCallsBackAtTheSchedulesDates() throws {
      let clock = ManualClock()
      let engine = CountdownEngine.manuallyDriven(by: clock)
      defer { engine.shutdown() }
      let start = clock.currentDate
      let deadline = start.addingTimeInterval(7_260.25)
      let schedule = try AdaptiveDisplay.coarse.changeSchedule(until: deadline)
      var calls: [(date: Date, value: Duration)] = []
      try engine.add(until: deadline, display: AdaptiveDisplay.coarse) { snapshot in
        calls.append((clock.currentDate, snapshot.value))
      }
      engine.serveDue()
      while clock.currentDate < deadline.addingTimeInterval(5) {
        clock.advance(by: .milliseconds(250))
        engine.serveDue()
      }
      let dates = Array(schedule.entries(from: start).prefix { $0 <= clock.currentDate })
      #expect(calls.map(\.value) == dates.map { schedule.value(at: $0) })
      #expect(calls.count == dates.count && calls.count > 60)
      for (call, date) in zip(calls, dates) {
        #expect(call.date >= date && call.date.timeIntervalSince(date) < 0.25 + 0.1)
      }
    }
  }
#endif
