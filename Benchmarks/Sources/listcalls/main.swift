import BenchmarkSupport
import CountdownKit
import CountdownTesting
import Foundation

/// `listcalls [ROWS]`: how often a list calls into the app for ROWS (default 1,000) bound rows of the
/// marketplace widget ("2 hours", "1.5 hours", "45 min" and a 32-point ring drawn at 3×), whose
/// windows last 30 minutes to 2 hours (a total per row) and start at random points of them, over two
/// hours of a manual clock moved in quarter seconds (every change served; no real time). Side by side,
/// one variant after the other in one run:
///
/// - `text`: `slot.bind(to:)` on a board of `.coarse`, the text alone (the ring moving only with it);
/// - `ring`: `slot.bind(to:progressSteps:)` on a board whose display never changes, the ring's visible
///   steps alone;
/// - `text+ring`: `slot.bind(to:progressSteps:)` on a board of `.coarse`, one binding per row giving
///   both;
/// - `fixed total`: before, `CombinedDisplay<AdaptiveDisplay, ProgressDisplay>` on a board, one total
///   (2 hours) for every row: calls for comparison (its ring is wrong for shorter windows).
///
/// Prints the calls into the app per variant and whether `text+ring` made no more than `text` and
/// `ring` together.
@MainActor
final class Tally {
  var calls = 0
}

struct Row {
  let id: Int
  let total: Duration
  let left: Duration
}

func rows(_ count: Int) -> [Row] {
  var random = SeededGenerator(seed: 0x11_57)
  let totals: [Duration] = [.seconds(1_800), .seconds(3_600), .seconds(5_400), .seconds(7_200)]
  return (0..<count).map { id in
    let total = totals[Int.random(in: 0..<totals.count, using: &random)]
    let left = total * Double.random(in: 0.05...1, using: &random)
    return Row(id: id, total: total, left: left)
  }
}

let steps = RingGeometry.visibleSteps(diameter: 32, lineWidth: 4, scale: 3)
let simulated = Duration.seconds(7_260)
let step = Duration.milliseconds(250)

/// Binds every row of `rows` to a slot of `board` (with `progressSteps`), runs the clock, returns the
/// calls into the app and the engine's wake-ups.
@MainActor
func run<Display: CountdownDisplay>(
  _ rows: [Row], display: Display, progressSteps: Int?, fixedTotal: Bool = false
) -> (calls: Int, wakeUps: Int) {
  let clock = ManualClock()
  let engine = CountdownEngine.manuallyDriven(by: clock)
  let board = engine.board(of: Int.self, display: display)
  let now = clock.now
  board.apply(
    .upserted(rows.map { BoardRow(id: $0.id, deadline: .after($0.left), total: fixedTotal ? nil : $0.total) }),
    asOf: now)
  let tally = Tally()
  let slots = rows.map { row in
    let slot = board.slot()
    slot.bind(to: row.id, progressSteps: progressSteps) { _ in tally.calls += 1 }
    return slot
  }
  var elapsed = Duration.zero
  while elapsed < simulated {
    clock.advance(by: step)
    elapsed += step
    engine.serveDue()
  }
  let result = (tally.calls, engine.statistics.wakeUps)
  withExtendedLifetime(slots) { engine.shutdown() }
  return result
}

@MainActor
func main(count: Int) {
  let rows = rows(count)
  print("\(count) rows, windows of 30 min to 2 h, a \(steps)-step ring; 2 h 1 min of a manual clock in 250 ms steps")
  let constant = PhaseDisplay(initial: 0, phases: [])
  let text = run(rows, display: AdaptiveDisplay.coarse, progressSteps: nil)
  let ring = run(rows, display: constant, progressSteps: steps)
  let both = run(rows, display: AdaptiveDisplay.coarse, progressSteps: steps)
  let fixed = run(
    rows, display: AdaptiveDisplay.coarse.combined(with: ProgressDisplay(steps: steps, total: .seconds(7_200))),
    progressSteps: nil, fixedTotal: true)
  func line(_ name: String, _ result: (calls: Int, wakeUps: Int)) -> String {
    "\(name): calls into the app \(result.calls) (\(String(format: "%.1f", Double(result.calls) / Double(count))) per row)"
  }
  print(line("text", text))
  print(line("ring", ring))
  print(line("text+ring", both))
  print(line("fixed total (before)", fixed))
  let bound = text.calls + ring.calls
  print(
    "text+ring / (text + ring) = \(String(format: "%.3f", Double(both.calls) / Double(bound))):"
      + (both.calls <= bound ? " no more calls than the text and the ring apart" : " MORE calls than apart"))
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0, radix: 10) }
guard arguments.count <= 1, let count = arguments.first ?? 1_000, count > 0 else {
  FileHandle.standardError.write(Data("usage: listcalls [ROWS] (a positive whole number)\n".utf8))
  exit(2)
}
MainActor.assumeIsolated { main(count: count) }
