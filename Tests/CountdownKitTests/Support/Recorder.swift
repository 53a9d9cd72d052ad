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
  for _ in 0..<100_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("Timed out waiting until \(description)", sourceLocation: sourceLocation)
}
