import Foundation
import SpawnShims
import Testing

/// termdown's features, as `countdown` has them, on the built binary: the live view under a pty
/// (as a person sees it), plain output through a pipe (as a script sees it). Under
/// `swift test -c release` this is the release binary.
@Suite("countdown features end to end")
struct FeatureEndToEndTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appending(path: "countdown-features-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// The output without OSC strings (window titles end with BEL too).
  static func withoutTitles(_ output: Data) -> String {
    String(decoding: output, as: UTF8.self).replacing(#/\x1B\][^\x07]*\x07/#, with: "")
  }

  @Test("Bell at zero, and none with --no-bell")
  func bell() async throws {
    async let ringing = PseudoTerminal(["1s"], workingDirectory: directory.appending(path: "a")).finish()
    async let silent = PseudoTerminal(["1s", "--no-bell"], workingDirectory: directory.appending(path: "b")).finish()
    let (with, without) = try await (ringing, silent)
    #expect(with.status == 0 && without.status == 0)
    #expect(Self.withoutTitles(with.output).filter { $0 == "\u{7}" }.count == 1)
    #expect(!Self.withoutTitles(without.output).contains("\u{7}"))
  }

  @Test("The window title shows the time left and is given back; --no-window-title leaves it")
  func windowTitle() async throws {
    async let titled = PseudoTerminal(["2s", "--title", "Tea"], workingDirectory: directory.appending(path: "a"))
      .finish()
    async let untitled = PseudoTerminal(["1s", "--no-window-title"], workingDirectory: directory.appending(path: "b"))
      .finish()
    let (with, without) = try await (titled, untitled)
    let text = String(decoding: with.output, as: UTF8.self)
    #expect(text.contains("\u{1B}[22;0t"), "the old title saved")
    #expect(text.contains("\u{1B}]2;00:02 · Tea\u{7}") && text.contains("\u{1B}]2;00:01 · Tea\u{7}"))
    #expect(text.contains("\u{1B}[23;0t"), "and restored")
    let plain = String(decoding: without.output, as: UTF8.self)
    #expect(!plain.contains("\u{1B}]2;") && !plain.contains("\u{1B}[22;0t"))
  }

  @Test("--exec runs once at zero with the title and end in its environment; --outfile ends at 00:00")
  func execAndOutfile() async throws {
    let log = directory.appending(path: "exec.log")
    let outfile = directory.appending(path: "left.txt")
    // The command also records what --outfile held when it ran: 00:00 if it ran at zero, not before.
    let command =
      "echo \"$COUNTDOWN_TITLE $COUNTDOWN_INDEX/$COUNTDOWN_COUNT $COUNTDOWN_END $(cat '\(outfile.path)')\" >> '\(log.path)'"
    let started = Date()
    let terminal = try PseudoTerminal(
      ["2s", "--title", "Eggs", "--exec", command, "--outfile", outfile.path],
      workingDirectory: directory.appending(path: "pty"))
    let result = try await terminal.finish()
    #expect(result.status == 0)
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1, "ran exactly once: \(lines)")
    #expect(lines.first?.hasPrefix("Eggs 1/1 20") == true)
    #expect(lines.first?.hasSuffix(" 00:00") == true, "ran at zero: \(lines)")
    #expect(Date().timeIntervalSince(started) >= 1.9)
    #expect(try String(contentsOf: outfile, encoding: .utf8) == "00:00\n")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty, "no temporary files left: \(leftovers)")
  }

  @Test("--exec-timeout ends a command with what it started; --exec gets no PGPASSWORD")
  func execTimeout() async throws {
    let log = directory.appending(path: "exec-timeout.log")
    // Records whether it sees PGPASSWORD, starts a grandchild that would outlive it, then hangs.
    let command = "echo \"pw=${PGPASSWORD-unset}\" > '\(log.path)'; sleep 60 & echo $! >> '\(log.path)'; sleep 60"
    // The runner kills countdown after 45 s (status -1): an exit of its own means it did not wait for the
    // command's minute.
    let result = try await CommandRunner.run(
      ["0.2s", "--plain", "--exec", command, "--exec-timeout", "1s"], environment: ["PGPASSWORD": "hunter2"],
      timeout: 45)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.errors.contains("--exec was still running after --exec-timeout 1s and was ended"))
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.first == "pw=unset")
    let grandchild = try #require(lines.last.flatMap { Int32($0) })
    #expect(Self.hasEnded(grandchild), "the command's background child ended with it")
    let bad = try await CommandRunner.run(["1s", "--exec", "true", "--exec-timeout", "0s"])
    #expect(bad.status == 64 && bad.errors.contains("--exec-timeout must be a duration from 1s to 24h"))
  }

  /// Whether process `pid` has ended (within 10 s), whoever its parent is.
  static func hasEnded(_ pid: Int32) -> Bool {
    let descriptor = spawn_pidfd_open(pid)
    guard descriptor >= 0 else { return errno == ESRCH }
    defer { close(descriptor) }
    var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&polled, 1, 10_000) == 1
  }

  @Test("Only changed cells are sent; SIGWINCH redraws the whole screen at once")
  func resizeRedraws() async throws {
    let terminal = try PseudoTerminal(["1h", "--title", "Tea"], workingDirectory: directory)
    #expect(try await terminal.wait(for: "Tea"))
    try await Task.sleep(for: .milliseconds(1_200))
    let clears = { String(decoding: terminal.output, as: UTF8.self).components(separatedBy: "\u{1B}[2J").count - 1 }
    #expect(clears() == 1, "one full draw at the start, then changes only")
    terminal.send(SIGWINCH)
    _ = try await terminal.wait(timeout: 5) { clears() == 2 }
    #expect(clears() == 2, "a full redraw after SIGWINCH")
    let afterResize = terminal.output.count
    try await Task.sleep(for: .milliseconds(1_100))
    #expect(terminal.output.count - afterResize < 400, "a second of changes is a few cells")
    terminal.type("q")
    #expect(try await terminal.finish().status == 3, "quit before zero")
  }

  @Test("A stopwatch records laps with l and prints them on quit")
  func laps() async throws {
    let terminal = try PseudoTerminal(["--up", "--title", "Run"], workingDirectory: directory)
    #expect(try await terminal.wait(for: "Run"))
    try await Task.sleep(for: .milliseconds(300))
    terminal.type("l")
    try await Task.sleep(for: .milliseconds(400))
    terminal.type("l")
    #expect(try await terminal.wait(for: "lap 2"), "laps shown in the view")
    terminal.type("q")
    let result = try await terminal.finish()
    #expect(result.status == 0)
    let printed = Self.withoutTitles(result.output).split(separator: "\r\n").map(String.init)
    let laps = printed.filter { $0.hasPrefix("lap ") }
    #expect(laps.count == 2, "\(printed.suffix(4))")
    #expect(laps.first.map { $0.wholeMatch(of: #/lap 1  0:00:\d\d\.\d\d/#) != nil } == true, "\(laps)")
    #expect(laps.last.map { $0.wholeMatch(of: #/lap 2  0:00:\d\d\.\d\d/#) != nil } == true, "\(laps)")
    // Under a loaded machine the run can take seconds, so only the form is checked.
    #expect(printed.contains { $0.contains(#/Run: stopped at \d\d:\d\d/#) }, "\(printed.suffix(4))")
  }

  @Test("r starts a stopwatch again from zero and clears its laps")
  func reset() async throws {
    let terminal = try PseudoTerminal(["--up", "--title", "Run"], workingDirectory: directory)
    // The lap is taken at 2 s or later, so a loaded machine that reads q a second late still stops
    // below it.
    #expect(try await terminal.wait(for: "00:02"))
    terminal.type("l")
    #expect(try await terminal.wait(for: "lap 1"))
    terminal.type("r")
    try await Task.sleep(for: .milliseconds(300))
    terminal.type("q")
    let result = try await terminal.finish()
    let printed = Self.withoutTitles(result.output)
    // The stopwatch stops below the lap it had before r: at 00:00 on an idle machine, and well below
    // the lap when a loaded machine is slow to read the keys (without r it would read the lap or more).
    let lap = printed.firstMatch(of: #/lap 1  0:00:(\d\d)\./#).flatMap { Int($0.1, radix: 10) }
    let stopped = printed.firstMatch(of: #/Run: stopped at 00:(\d\d)/#).flatMap { Int($0.1, radix: 10) }
    #expect(lap != nil && stopped != nil, "\(printed.suffix(120))")
    if let lap, let stopped {
      #expect(stopped == 0 || stopped < lap, "lap 1 at \(lap) s, stopped at \(stopped) s after r")
    }
    #expect(!printed.split(separator: "\r\n").contains { $0.hasPrefix("lap ") }, "laps cleared")
  }

  @Test("--end-text stays after zero until --quit-after; --blink flashes; a key quits the finale")
  func finale() async throws {
    async let timed = PseudoTerminal(
      ["1s", "--end-text", "Tea is ready", "--blink", "--quit-after", "1.2"],
      workingDirectory: directory.appending(path: "a")
    ).finish()
    let keyed = try PseudoTerminal(["1s", "--end-text", "Done"], workingDirectory: directory.appending(path: "b"))
    #expect(try await keyed.wait(for: "Done"))
    try await Task.sleep(for: .milliseconds(300))
    #expect(keyed.pid.map { kill($0, 0) == 0 } == true, "still running after zero")
    keyed.type("x")
    let afterKey = try await keyed.finish()
    #expect(afterKey.status == 0 && afterKey.after == afterKey.before)
    let result = try await timed
    #expect(result.status == 0)
    let text = String(decoding: result.output, as: UTF8.self)
    #expect(text.contains("Tea is ready"))
    #expect(text.contains("\u{1B}[0;7"), "inverted at least once")
  }

  @Test("Two times run in turn, live (1/2, 2/2) and plain")
  func sequence() async throws {
    async let plain = CommandRunner.run(["2s", "1s", "--title", "Focus", "--title", "Break"])
    let terminal = try PseudoTerminal(
      ["1s", "1s", "--title", "Focus", "--title", "Break"], workingDirectory: directory)
    let result = try await terminal.finish()
    let text = Self.withoutTitles(result.output)
    #expect(text.contains("1/2") && text.contains("2/2") && text.contains("Focus") && text.contains("Break"))
    #expect(result.status == 0)
    #expect(try await plain.output == "00:02\n00:01\n00:00\n00:01\n00:00")
  }

  @Test(
    "Every form of <time> is accepted (past dates print zero at once)",
    arguments: [
      ["1"], ["0h 0m 1s"], ["1 second"], ["0:00:01"], ["2020-01-01"], ["2020-01-01 14:00"], ["2020-01-01T14:00"],
      ["2020-01-01 14:00 UTC"], ["2020-01-01 14:00 +02:00"], ["2020-01-01T14:00:00Z"], ["๑"], ["2020/01/01"],
      ["Jan 1 2020"], ["1 Jan 2020"], ["January 1, 2020 14:00"], ["20200101T140000Z"], ["2020-01-01 9:30"],
      ["2020-01-01 2pm"], ["today 0:00"], ["13/02/2020"], ["01.02.2020"], ["2020-01-01 14:00 Europe/Berlin"],
      ["2020-01-01 14:00 EST"], ["0.5s"],
    ])
  func timeForms(arguments: [String]) async throws {
    let result = try await CommandRunner.run(arguments + ["--plain"])
    #expect(result.status == 0, "stderr: \(result.errors)")
    #expect(result.output.hasSuffix("00:00"))
  }

  @Test("Clock times, zones, days and dates count down to the right instant")
  func futureForms() async throws {
    // A whole minute 60–120 s ahead, so that a loaded machine that takes up to 30 s to run the forms
    // still sees it at least 30 s away.
    let inAMinute = Date().addingTimeInterval(120)
    func clock(_ zone: String) -> (hour: Int, minute: Int, date: String) {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
      let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: inAMinute)
      let date = "\(parts.year ?? 0)-\(Self.two(parts.month ?? 0))-\(Self.two(parts.day ?? 0))"
      return (parts.hour ?? 0, parts.minute ?? 0, date)
    }
    let utc = clock("UTC")
    let berlin = clock("Europe/Berlin")
    let twelveHour = "\(utc.hour % 12 == 0 ? 12 : utc.hour % 12):\(Self.two(utc.minute))\(utc.hour < 12 ? "am" : "pm")"
    let forms = [
      "\(utc.hour):\(Self.two(utc.minute))", "\(utc.date) \(utc.hour):\(Self.two(utc.minute)) UTC",
      "\(twelveHour) UTC", "\(Self.two(utc.hour)):\(Self.two(utc.minute))Z",
      "\(berlin.hour):\(Self.two(berlin.minute)) Europe/Berlin", "\(utc.date) \(twelveHour)",
    ]
    // `today` only while the minute is still today.
    let today = Date().formatted(Date.ISO8601FormatStyle().year().month().day())
    let todayForm = utc.date == today ? ["today \(utc.hour):\(Self.two(utc.minute))"] : []
    for time in forms + todayForm {
      let seconds = try await firstLine(time)
      #expect(seconds.map { (30...121).contains($0) } == true, "\(time): \(seconds.map(String.init) ?? "no line")")
    }
    // Tomorrow (UTC, as the runner sets TZ) starts within a day.
    let untilMidnight = Int(86_400 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400))
    for time in ["tomorrow", "midnight", Self.weekdayTomorrow()] {
      let seconds = try await firstLine(time)
      #expect(seconds.map { abs($0 - untilMidnight) <= 30 } == true, "\(time): \(seconds.map(String.init) ?? "none")")
    }
    #expect(try await firstLine("1y") == 8_766 * 3_600, "a year is 365.25 days")
  }

  /// The first line `countdown <time> --plain` prints, in seconds.
  private func firstLine(_ time: String) async throws -> Int? {
    let runner = try CommandRunner([time, "--plain"])
    try await runner.waitForLines(1)
    runner.send(SIGTERM)
    _ = try await runner.waitForExit()
    return runner.texts.first.flatMap { line -> Int? in
      let parts = line.replacing(",", with: "").split(separator: ":").compactMap { Int($0) }
      return parts.reduce(0) { $0 * 60 + $1 }
    }
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// The English name of tomorrow's weekday in UTC.
  private static func weekdayTomorrow() -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let weekday = calendar.component(.weekday, from: Date().addingTimeInterval(86_400))
    return ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][weekday - 1]
  }

  @Test("--voice speaks in the locale's language, through a recording stand-in speaker", arguments: ["en", "ru"])
  func voice(language: String) async throws {
    let log = directory.appending(path: "spoken-\(language).log")
    let speaker = directory.appending(path: "speaker.sh")
    try Data("printf '%s|%s\\n' \"$COUNTDOWN_SPEAK_LANGUAGE\" \"$1\" >> \"$SPOKEN_LOG\"\n".utf8).write(to: speaker)
    let result = try await CommandRunner.run(
      ["2s", "--voice", "--locale", language],
      environment: ["COUNTDOWN_SPEAK_COMMAND": "sh '\(speaker.path)'", "SPOKEN_LOG": log.path])
    #expect(result.status == 0, "stderr: \(result.errors)")
    let spoken = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    let expected =
      language == "ru"
      ? ["ru|Осталось: 2 секунды", "ru|Осталось: 1 секунда", "ru|Осталось: 0 секунд"]
      : ["en|2 seconds left", "en|1 second left", "en|0 seconds left"]
    #expect(spoken == expected)
  }

  @Test("--voice without a speech program says what to install")
  func noSpeaker() async throws {
    let result = try await CommandRunner.run(["2s", "--voice"], environment: ["PATH": "/nonexistent"])
    #expect(result.status == 64)
    #expect(result.errors.contains("espeak-ng") && result.errors.contains("COUNTDOWN_SPEAK_COMMAND"))
  }
}
