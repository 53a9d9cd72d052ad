import BenchmarkSupport
import Foundation

/// `compare`: the engine and the strategies apps use today, side by side in one process.
let usage = """
  usage: compare [--scenario 1...5 | all] [--n COUNT] [--seconds S] [--only engine,a,b,c] [--json FILE]
                 [--max-rss-gb G] [--app-work record|count] [--phases random|shared]
                 [--malloc-stats]
         compare --smoke

    --scenario   1 steady, 2 idle, 3 list, 4 churn, 5 herd (default 1)
    --n          countdowns (registered rows for scenario 3); default 10000
    --seconds    measured window; default 5 (60 for scenario 2)
    --only       contenders to run, in order; default engine,a,b,c (column: a board that keeps every
                 row's value, its changed rows in one batch per wake-up)
    --json       also write the measurements to FILE
    --max-rss-gb stop (exit 3) if resident memory passes G gigabytes; default 8
    --app-work   what each delivery does: record (default) checks it in a row of the app's, so that
                 skipped, duplicated, early and late values are counted; count only counts it, touching
                 no memory of the app's per row: the contenders' own cost (only CPU and deliveries are
                 then measured)
    --phases     where in the second the ends of scenarios 1, 3 and 4 fall: random (default; each
                 wake-up serves a scattered tenth of the rows) or shared (all on the half second, as
                 deadlines stored to the second: one wake-up a second serves every row, in order)
    --malloc-stats
                 print malloc's statistics per arena (standard error) once each contender settled:
                 which thread's arena keeps freed memory resident
    --smoke      scenario 1, engine only, N = 10000, 9 s; exits 1 if any value is skipped,
                 duplicated, early or delivered after cancel
  """

struct Options {
  var scenarios: [Scenario] = [.steady]
  var n = 10_000
  var seconds: Double?
  var contenders: [ContenderKind] = [.engine, .a, .b, .c]
  var json: String?
  var smoke = false
  var maxResidentGigabytes = 8.0
  var appWork = Recorder.AppWork.record
  var phases = Scenario.Phases.random
  var mallocStats = false
}

func parse(_ arguments: [String]) -> Options? {
  var options = Options()
  var rest = arguments[...]
  while let flag = rest.popFirst() {
    if flag == "--smoke" {
      options.smoke = true
      continue
    }
    if flag == "--malloc-stats" {
      options.mallocStats = true
      continue
    }
    guard let value = rest.popFirst() else { return nil }
    switch flag {
    case "--scenario":
      if value == "all" {
        options.scenarios = Scenario.allCases
      } else {
        guard
          let numbers = Optional(value.split(separator: ",").compactMap { Int($0).flatMap(Scenario.init(rawValue:)) }),
          !numbers.isEmpty
        else { return nil }
        options.scenarios = numbers
      }
    case "--n":
      guard let n = Int(value.replacingOccurrences(of: "_", with: "")), n > 0 else { return nil }
      options.n = n
    case "--seconds":
      guard let seconds = Double(value), seconds > 0 else { return nil }
      options.seconds = seconds
    case "--only":
      let kinds = value.split(separator: ",").compactMap { ContenderKind(rawValue: String($0)) }
      guard !kinds.isEmpty else { return nil }
      options.contenders = kinds
    case "--json":
      options.json = value
    case "--app-work":
      guard let work = Recorder.AppWork(rawValue: value) else { return nil }
      options.appWork = work
    case "--phases":
      guard let phases = Scenario.Phases(rawValue: value) else { return nil }
      options.phases = phases
    case "--max-rss-gb":
      guard let limit = Double(value), limit > 0 else { return nil }
      options.maxResidentGigabytes = limit
    default:
      return nil
    }
  }
  return options
}

guard var options = parse(Array(CommandLine.arguments.dropFirst())) else {
  FileHandle.standardError.write(Data((usage + "\n").utf8))
  exit(2)
}
if options.smoke {
  options.scenarios = [.steady]
  options.n = 10_000
  options.seconds = 9
  options.contenders = [.engine]
  options.appWork = .record
  options.phases = .random
}

Watchdog.start(limitBytes: Int(options.maxResidentGigabytes * 1e9))
if options.appWork == .record {
  print(
    String(
      format: "Recording a delivery costs %.0f ns of CPU; it is included in every CPU figure below.\n",
      Recorder.costOfRecording()))
} else {
  print("Deliveries are only counted: the values are not checked, and no memory of the app's per row is touched.\n")
}

var all: [ContenderMeasurement] = []
for scenario in options.scenarios {
  var runner = ScenarioRunner(scenario: scenario, n: options.n, seconds: options.seconds ?? scenario.defaultSeconds)
  runner.appWork = options.appWork
  runner.phases = options.phases
  runner.printsMallocStats = options.mallocStats
  print("Scenario \(scenario.rawValue) — \(scenario.title)")
  var measurements: [ContenderMeasurement] = []
  for kind in options.contenders {
    let measurement = await runner.measure(kind)
    print(
      String(
        format: "  %@: %.4f CPU s/s, %.0f changes/s", measurement.contender, measurement.cpuPerSecond,
        measurement.changesPerSecond))
    measurements.append(measurement)
  }
  if options.appWork == .count {
    print("\n(--app-work count: lateness, skipped, duplicated, early and after-cancel are not measured)")
  }
  print("\n" + Report(measurements).markdown)
  if let column = measurements.first(where: { $0.contender.hasPrefix("column") }),
    let sweep = measurements.first(where: { $0.contender.hasPrefix("(b)") })
  {
    print("column/sweep CPU ratio: \(String(format: "%.3f", column.cpuPerSecond / sweep.cpuPerSecond))")
  }
  all += measurements
}

if let path = options.json {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  do {
    try encoder.encode(all).write(to: URL(fileURLWithPath: path))
  } catch {
    FileHandle.standardError.write(Data("compare: cannot write \(path): \(error)\n".utf8))
    exit(1)
  }
}

if options.smoke {
  let failures = all.filter { measurement in
    let counts = measurement.counts
    let wrong = counts.skipped + counts.duplicated + counts.early + counts.afterCancel
    return wrong > 0 || counts.changes == 0
  }
  if failures.isEmpty {
    print("smoke: 1 passed, 0 failed")
  } else {
    print("smoke: 0 passed, 1 failed (skipped, duplicated, early or after-cancel deliveries, or no change at all)")
    exit(1)
  }
}
