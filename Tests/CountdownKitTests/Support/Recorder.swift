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

/// Yields (never sleeps) until `condition` holds; false after 30 seconds of wall time.
///
/// The engine's driver and main-actor deliveries run on other threads or tasks, so a test waits for
/// them by yielding. The bound is wall time, not a number of yields: with the whole suite running in
/// parallel on two cores, a fixed number of yields can pass before the driver thread is scheduled.
func yieldUntil(
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: .seconds(30))
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    await Task.yield()
  }
  return true
}
