/// What a ``CountdownEngine`` has done and holds: counters for benchmarks and diagnostics.
public struct EngineStatistics: Hashable, Sendable {
  /// How many times the driver has woken up since the engine started.
  public var wakeUps: Int
  /// The countdowns the engine holds, bound or not (its ``CountdownEngine/count``).
  public var countdowns: Int
  /// The countdowns that somebody watches: a closure, a stream, a bound slot or a completion callback.
  public var subscribers: Int

  /// Counters with these values.
  public init(wakeUps: Int, countdowns: Int, subscribers: Int) {
    self.wakeUps = wakeUps
    self.countdowns = countdowns
    self.subscribers = subscribers
  }
}
