/// Everything measured for one contender in one scenario run.
public struct ContenderMeasurement: Codable, Sendable {
  /// Which contender.
  public var contender: String
  /// Which scenario.
  public var scenario: Int
  /// The scenario's N.
  public var n: Int
  /// The measured window, in seconds of real time.
  public var windowSeconds: Double
  /// CPU time (user + system, all threads) per second of real time during the window.
  public var cpuPerSecond: Double
  /// The contender's own wake-ups per second: driver wake-ups, timer fires, ticks.
  public var wakeUpsPerSecond: Double
  /// Voluntary context switches of the whole process per second: threads going to sleep and waking.
  public var contextSwitchesPerSecond: Double
  /// Changed values delivered per second.
  public var changesPerSecond: Double
  /// All deliveries per second (changes, duplicates, first renders).
  public var deliveriesPerSecond: Double
  /// Lateness of delivered changes after their boundary, in milliseconds.
  public var latenessP50Milliseconds: Double
  public var latenessP99Milliseconds: Double
  public var latenessMaxMilliseconds: Double
  /// The recorder's counts for the window.
  public var counts: Recorder.Counts
  /// Resident memory added by the contender's countdowns, per countdown (bytes).
  public var residentBytesPerCountdown: Double
  /// Heap bytes added by the contender's countdowns, per countdown.
  public var heapBytesPerCountdown: Double
  /// Resident memory per countdown once malloc has given its free memory back (`malloc_trim`, after
  /// the other memory figures were taken): what the countdowns hold, apart from what the allocator
  /// kept of freed memory.
  public var trimmedResidentBytesPerCountdown: Double?
  /// Real time to set the scenario up, per countdown (microseconds).
  public var setupMicrosecondsPerCountdown: Double
  /// Scenario-specific figures: cost per operation in churn, mutation latency in the herd.
  public var extra: [String: Double] = [:]
}
