import Testing
import CountdownKit
import CountdownTesting

/// Collects what main-actor callbacks receive, so that a test can compare it with what it expects.
@MainActor
final class Recorder<Key: Hashable, Value> {
  private(set) var updates: [Key: [Value]] = [:]
  private(set) var finishes: [Key: Int] = [:]

  /// A callback that records the values it receives under `key`.
  func onChange(_ key: Key) -> @MainActor @Sendable (Value) -> Void where Value: Sendable, Key: Sendable {
    { [weak self] value in self?.updates[key, default: []].append(value) }
  }

  /// A callback that counts completions under `key`.
  func onFinish(_ key: Key) -> @MainActor @Sendable () -> Void where Key: Sendable {
    { [weak self] in self?.finishes[key, default: 0] += 1 }
  }

  /// Records a completion of `key`.
  func finished(_ key: Key) {
    finishes[key, default: 0] += 1
  }

  /// The number of values received under `key`.
  func count(_ key: Key) -> Int { updates[key]?.count ?? 0 }

  /// The last value received under `key`.
  func last(_ key: Key) -> Value? { updates[key]?.last }
}

/// An engine on a manual clock, served by hand with `_serveDue()`.
@MainActor
func makeManualEngine(
  tolerance: Duration = .milliseconds(100)
) -> (CountdownEngine<ManualClock>, ManualClock) {
  let clock = ManualClock()
  let engine = CountdownEngine(clock: clock, wallClock: clock, tolerance: tolerance, drivesItself: false)
  return (engine, clock)
}

/// Waits, by yielding (never sleeping), until `condition` holds; records an issue if it never does.
@MainActor
func waitUntil(
  _ description: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async {
  if await yieldUntil(condition) { return }
  Issue.record("Timed out waiting until \(description)", sourceLocation: sourceLocation)
}

/// Yields (never sleeps) until `condition` holds; false after 30 seconds in which it kept not holding.
///
/// The engine's driver and main-actor deliveries run on other threads or tasks, so a test waits for
/// them by yielding. The bound is time, not a number of yields: with the whole suite running in
/// parallel on two cores, a fixed number of yields can pass before the driver thread is scheduled. A
/// yield that takes longer than 100 ms counts as 100 ms: that was the executor busy with other tests'
/// work (a long synchronous test on the main actor holds every main-actor test up), not time this test
/// had to see its condition come true.
func yieldUntil(
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () -> Bool
) async -> Bool {
  var budget = Duration.seconds(30)
  var last = ContinuousClock.now
  while !condition() {
    guard budget > .zero else { return false }
    await Task.yield()
    let now = ContinuousClock.now
    budget -= min(last.duration(to: now), .milliseconds(100))
    last = now
  }
  return true
}
