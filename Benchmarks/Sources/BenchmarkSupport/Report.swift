import Foundation

/// The table of one scenario run: a column per contender, then the engine's ratio to each strategy.
public struct Report: Sendable {
  /// The measurements, the engine's first when it ran.
  public var measurements: [ContenderMeasurement]

  /// A report of `measurements`.
  public init(_ measurements: [ContenderMeasurement]) {
    self.measurements = measurements
  }

  private typealias Row = (name: String, value: (ContenderMeasurement) -> Double, format: Format)

  private enum Format {
    case cpu, rate, milliseconds, count, bytes, micro
  }

  private static var rows: [Row] {
    [
      ("CPU s per s", { $0.cpuPerSecond }, .cpu),
      ("own wake-ups /s", { $0.wakeUpsPerSecond }, .rate),
      ("context switches /s", { $0.contextSwitchesPerSecond }, .rate),
      ("changes delivered /s", { $0.changesPerSecond }, .rate),
      ("all deliveries /s", { $0.deliveriesPerSecond }, .rate),
      ("late p50 ms", { $0.latenessP50Milliseconds }, .milliseconds),
      ("late p99 ms", { $0.latenessP99Milliseconds }, .milliseconds),
      ("late max ms", { $0.latenessMaxMilliseconds }, .milliseconds),
      ("skipped", { Double($0.counts.skipped) }, .count),
      ("duplicated", { Double($0.counts.duplicated) }, .count),
      ("early", { Double($0.counts.early) }, .count),
      ("after cancel", { Double($0.counts.afterCancel) }, .count),
      ("RSS B/countdown", { $0.residentBytesPerCountdown }, .bytes),
      ("heap B/countdown", { $0.heapBytesPerCountdown }, .bytes),
      ("RSS B/countdown, heap trimmed", { $0.trimmedResidentBytesPerCountdown ?? .nan }, .bytes),
      ("setup µs/countdown", { $0.setupMicrosecondsPerCountdown }, .micro),
    ]
  }

  /// The table as Markdown.
  public var markdown: String {
    guard let first = measurements.first else { return "" }
    let engine = measurements.first { $0.contender.contains("engine") }
    let strategies = measurements.filter { !$0.contender.contains("engine") }
    var header = ["metric"] + measurements.map(\.contender)
    if engine != nil { header += strategies.map { "engine/\($0.contender.prefix(3))" } }
    var lines = [header]
    var rows = Self.rows
    let extraKeys = Set(measurements.flatMap { $0.extra.keys }).sorted()
    rows += extraKeys.map { key in (key, { $0.extra[key] ?? .nan }, Format.micro) }
    for row in rows {
      var line = [row.name] + measurements.map { Self.format(row.value($0), row.format) }
      if let engine {
        line += strategies.map { Self.ratio(row.value(engine), row.value($0)) }
      }
      lines.append(line)
    }
    let window = String(format: "%.1f", first.windowSeconds)
    var text =
      "Scenario \(first.scenario), N = \(first.n), window \(window) s, \(ProcessInfo.processInfo.activeProcessorCount) cores\n\n"
    for (index, line) in lines.enumerated() {
      text += "| " + line.joined(separator: " | ") + " |\n"
      if index == 0 { text += "|" + String(repeating: "---|", count: line.count) + "\n" }
    }
    return text
  }

  private static func format(_ value: Double, _ format: Format) -> String {
    guard value.isFinite else { return "–" }
    switch format {
    case .cpu: return String(format: "%.4f", value)
    case .rate where value != 0 && abs(value) < 1: return String(format: "%.3f", value)
    case .rate where abs(value) < 10: return String(format: "%.1f", value)
    case .rate, .count, .bytes: return grouped(value)
    case .milliseconds: return String(format: value < 10 ? "%.2f" : "%.0f", value)
    case .micro: return String(format: value < 10 ? "%.2f" : "%.0f", value)
    }
  }

  private static func grouped(_ value: Double) -> String {
    let rounded = Int(value.rounded())
    let digits = String(abs(rounded))
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return (rounded < 0 ? "-" : "") + groups.joined(separator: ",")
  }

  private static func ratio(_ engine: Double, _ strategy: Double) -> String {
    guard engine.isFinite, strategy.isFinite else { return "–" }
    if strategy == 0 { return engine == 0 ? "=" : "∞" }
    let ratio = engine / strategy
    return ratio < 0.01 ? String(format: "%.4f", ratio) : String(format: "%.2f", ratio)
  }
}
