import BenchmarkSupport
import CountdownKit
import Foundation

/// `ringcalls [RINGS] [SECONDS]`: how often the engine calls into the app for RINGS (default 1,000)
/// eight-second rings of a card game (415 visible steps each, a 48-point ring at 3×, eight colour
/// phases), each starting a new turn when one ends, measured over SECONDS (default 16) of real time
/// after 2 s of warm-up, for three ways of driving them, one after the other in one process:
///
/// - `steps`: today's step updates, `engine.add(turn, display: <415-step progress>.combined(with:
///   <phases>))`, the app setting the ring at every call;
/// - `phases`: `engine.add(turn, display: <phases>)` alone, what a plan model subscribes with: the
///   engine's calls when the ring is animated by the system;
/// - `plans`: a `RingAnimationModel` per ring, the app called with each new plan (`onPlan`); the
///   engine's calls into the model are those of `phases`.
///
/// Prints calls into the app per second, CPU seconds per second of the whole process and the engine's
/// wake-ups per second, per variant.
@MainActor
final class Rings {
  static let turn = Duration.seconds(8)
  static let steps = RingGeometry.visibleSteps(diameter: 48, lineWidth: 4, scale: 3)
  static let phases = PhaseDisplay(initial: 0, phases: (1...7).map { .init(startsAt: .seconds(8 - $0), value: $0) })
  static let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)

  enum Variant: String, CaseIterable {
    case steps, phases, plans
  }

  let engine: CountdownEngine<ContinuousClock>
  let variant: Variant
  /// Calls into the app: step updates, phase snapshots or plans, by variant.
  var calls = 0
  /// Turns finished (each restarts its ring).
  var turns = 0
  /// What the `steps` variant's app draws: the latest stroke end and phase of each ring.
  var shown: [(strokeEnd: Double, phase: Int)]
  var handles: [CountdownHandle<ContinuousClock>?]
  var models: [RingAnimationModel<PhaseDisplay<Int>, ContinuousClock>?]
  var isRunning = true

  init(engine: CountdownEngine<ContinuousClock>, variant: Variant, count: Int) {
    self.engine = engine
    self.variant = variant
    shown = Array(repeating: (1, 0), count: count)
    handles = Array(repeating: nil, count: count)
    models = Array(repeating: nil, count: count)
  }

  /// Starts ring `index` with `left` of its turn to go.
  func start(_ index: Int, left: Duration) {
    guard isRunning else { return }
    let turn = Countdown(end: engine.now.advanced(by: left), total: Self.turn)
    let onFinish: @MainActor @Sendable () -> Void = { [weak self] in
      guard let self else { return }
      turns += 1
      start(index, left: Self.turn)
    }
    switch variant {
    case .steps:
      let display = ProgressDisplay(steps: Self.steps, total: Self.turn).combined(with: Self.phases)
      handles[index] = engine.add(
        turn, display: display,
        onChange: { [weak self] snapshot in
          guard let self else { return }
          calls += 1
          shown[index] = (snapshot.value.first, snapshot.value.second)
        }, onFinish: onFinish)
    case .phases:
      handles[index] = engine.add(
        turn, display: Self.phases,
        onChange: { [weak self] snapshot in
          guard let self else { return }
          calls += 1
          shown[index].phase = snapshot.value
        }, onFinish: onFinish)
    case .plans:
      models[index] = RingAnimationModel(
        engine: engine, countdown: turn, phases: Self.phases, ring: Self.ring,
        mediaClock: MediaClock(seconds: { ProcessInfo.processInfo.systemUptime }),
        onPlan: { [weak self] plan in
          guard let self else { return }
          calls += 1
          shown[index] = (plan.restingStrokeEnd, plan.restingPhase)
        }, onFinish: onFinish)
    }
  }

  func stop() {
    isRunning = false
    for handle in handles { handle?.cancel() }
    for model in models { model?.handle.cancel() }
  }
}

@MainActor
func measure(_ variant: Rings.Variant, count: Int, seconds: Int) async -> String {
  let engine = CountdownEngine()
  let rings = Rings(engine: engine, variant: variant, count: count)
  // Staggered: ring i is i/count of the way through its first turn.
  for index in 0..<count {
    rings.start(index, left: Rings.turn * (Double(count - index) / Double(count)))
  }
  try? await Task.sleep(for: .seconds(2))
  let (calls, turns, wakeUps, start) = (rings.calls, rings.turns, engine.statistics.wakeUps, ProcessStats.now())
  try? await Task.sleep(for: .seconds(seconds))
  let end = ProcessStats.now()
  let wall = end.wallSeconds - start.wallSeconds
  let perSecond = { (value: Int) in String(format: "%.0f", Double(value) / wall) }
  let report =
    "\(variant.rawValue): calls into the app \(perSecond(rings.calls - calls))/s,"
    + " CPU \(String(format: "%.4f", (end.cpuSeconds - start.cpuSeconds) / wall)) s/s,"
    + " engine wake-ups \(perSecond(engine.statistics.wakeUps - wakeUps))/s,"
    + " turns \(perSecond(rings.turns - turns))/s"
  rings.stop()
  engine.shutdown()
  return report
}

@MainActor
func run(count: Int, seconds: Int) async {
  print("\(count) rings of 8 s, \(Rings.steps) visible steps, 8 phases; \(seconds) s measured after 2 s of warm-up")
  for variant in Rings.Variant.allCases {
    print(await measure(variant, count: count, seconds: seconds))
  }
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0, radix: 10) }
let numbers = arguments.compactMap { $0 }.filter { $0 > 0 }
guard numbers.count == arguments.count, numbers.count <= 2 else {
  FileHandle.standardError.write(Data("usage: ringcalls [RINGS] [SECONDS] (positive whole numbers)\n".utf8))
  exit(2)
}
await run(count: numbers.first ?? 1_000, seconds: numbers.dropFirst().first ?? 16)
