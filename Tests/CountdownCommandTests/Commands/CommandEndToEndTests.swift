import Foundation
import Synchronization
import Testing

/// The built `countdown` binary, run as a user would (a few seconds of real time in all; the tests
/// run in parallel).
@Suite("countdown end to end")
struct CommandEndToEndTests {
  @Test(
    "Bad input exits 64 with a message that quotes it and says what to write",
    arguments: [
      (["soon"], "25m"),
      (["25:00"], "For 25 minutes write 25m"),
      (["24:00"], "'24:00' is not a time of day: hours and minutes are a clock time, and there is no hour 24. The end"),
      (["33:58"], "For 33 minutes 58 seconds write 33m58s"),
      (["1h1h"], "largest to smallest, each once: write 2h"),
      (["2026-02-30T00:00:00Z"], "February 2026 has 28 days. Try 2026-02-28."),
      (["0000-01-01"], "'0000-01-01': there is no year 0"),
      (["9999-12-31"], "'9999-12-31' is 7"),
      (["2320-01-01"], "at most 36525 days (100 years of 365.25 days)"),
      (["100y 1s", "--title", "x"], "36525 days"),
      (["101y"], "'101y' is longer than 36525 days"),
      (
        ["1\u{200F}0"],
        "'1\\u{200F}0': \\u{200F} (RIGHT-TO-LEFT MARK) is an invisible or control character. Without it: '10'."
      ),
      (["1\u{200B}m"], "'1\\u{200B}m'"),
      (["18:00 IST"], "IST stands for several zones: +05:30 India"),
      (["01/02/2027"], "could be 1 February 2027 (day first) or 2 January 2027 (month first)"),
      (["5m", "--locale", "xx"], "language code"),
      (["5m", "--style", "fancy"], "digital"),
      (["format", "18:00"], "90s"),
      (["ring", "1.5"], "0.75"),
      ([], "countdown 25m"),
      (["-5s"], "Write 5s for that much time from now"),
      (["--5"], "'--5' is negative"),
      (["--title", "x", "-1h30m"], "Write 1h30m"),
      (["format", "-5s"], "countdown format -- -5s"),
      (["2026-12-31T23:59:59+18:01"], "the offset +18:01 is beyond ±18:00"),
      (["format", "2026-12-31T23:59:59+18:01"], "beyond ±18:00"),
      (["๒๕:๐๐"], "'๒๕:๐๐' (25:00) is not a time of day"),
      (["2026-12-31T2٣:60"], "minute 60 is not in 0...59"),
      (["1²m"], "'²' (SUPERSCRIPT TWO) is not a decimal digit"),
      (["board", "pause", "x"], "invalid for '<id>'"),
      (["board", "--rows", "1e3"], "invalid for '--rows <rows>'"),
      (["ring", "nan"], "0.75"),
      (["ring", "0.5", "--size", "inf"], "invalid for '--size <size>'"),
      (["\u{1B}]2;pwned\u{7}"], "'\\u{1B}]2;pwned\\u{7}': \\u{1B} (U+001B) is an invisible or control character"),
    ])
  func badInput(arguments: [String], hint: String) async throws {
    let result = try await CommandRunner.run(arguments)
    #expect(result.status == 64)
    #expect(result.errors.contains(hint), "stderr: \(result.errors)")
    #expect(!result.errors.contains("Missing <time>") || arguments.isEmpty, "stderr: \(result.errors)")
    #expect(!result.errors.contains("\u{1B}") && !result.errors.contains("\u{7}"), "no control characters echoed")
    #expect(result.output.isEmpty)
  }

  @Test("01/02/2027 is read in the order of --locale")
  func localeOrder() async throws {
    async let british = CommandRunner.run(["01/02/2020", "--locale", "en_GB"])
    async let american = CommandRunner.run(["13/01/2020", "--locale", "en_US"])
    #expect(try await british.status == 0, "a past date: zero at once")
    let result = try await american
    #expect(result.status == 64 && result.errors.contains("month 13 is not in 1...12"), "\(result.errors)")
  }

  @Test("A 3-second countdown prints each second once, the last line zero, then exits 0")
  func plainThreeSeconds() async throws {
    // stdout is a pipe, so the output is plain without --plain.
    let runner = try CommandRunner(["3s"])
    let status = try await runner.waitForExit()
    #expect(status == 0)
    #expect(runner.texts == ["00:03", "00:02", "00:01", "00:00"])
    let times = runner.lines.map(\.time)
    #expect(times.count == 4)
    guard times.count == 4 else { return }
    // One line a second: each change at most the engine's tolerance (100 ms) late, plus whatever a
    // machine loaded by the rest of the suite adds to reading a pipe.
    for (earlier, later) in zip(times, times.dropFirst()) {
      #expect((0.5...2.0).contains(later - earlier), "lines at \(times)")
    }
  }

  @Test("Other styles and locales, counting down and up")
  func stylesAndDirections() async throws {
    async let units = CommandRunner.run(["2s", "--plain", "--style", "units"])
    async let spoken = CommandRunner.run(["1s", "--style", "spoken", "--locale", "de"])
    async let up = CommandRunner.run(["2s", "--up"])
    async let past = CommandRunner.run(["2020-01-01T00:00:00Z"])
    #expect(try await units.output == "2 secs\n1 sec\n0 secs")
    #expect(try await spoken.output == "Noch 1 Sekunde\nNoch 0 Sekunden")
    #expect(try await up.output == "00:00\n00:01\n00:02")
    let pastResult = try await past
    #expect(pastResult.status == 0 && pastResult.output == "00:00")
  }

  @Test("Stopped past the end: one zero line after SIGCONT, no burst, completion once")
  func stoppedThroughTheEnd() async throws {
    let marks = Marks()
    let runner = try CommandRunner(["2s"]) { index, runner in
      guard index == 0 else { return }
      marks.set("stop", runner.send(SIGSTOP))
      DispatchQueue.global().asyncAfter(deadline: .now() + 2.5) {
        marks.set("linesWhileStopped", Double(runner.lines.count))
        marks.set("cont", runner.send(SIGCONT))
      }
    }
    let status = try await runner.waitForExit()
    #expect(status == 0)
    #expect(marks["linesWhileStopped"] == 1, "nothing printed while stopped")
    #expect(runner.texts == ["00:02", "00:00"])
  }

  @Test("Stopped mid-way: on SIGCONT the true value at once, the values missed are skipped")
  func stoppedMidway() async throws {
    let marks = Marks()
    let runner = try CommandRunner(["4s"]) { index, runner in
      guard index == 0 else { return }
      marks.set("stop", runner.send(SIGSTOP))
      DispatchQueue.global().asyncAfter(deadline: .now() + 2.6) { marks.set("cont", runner.send(SIGCONT)) }
    }
    let status = try await runner.waitForExit()
    #expect(status == 0)
    // Stopped from 0 s to 2.6 s into a 4-second countdown: 1.4 s left reads 00:02; 00:03 was missed.
    // On a loaded machine the stop can land a little after the first line, so the check is the
    // shape: 00:03 (due while stopped) never shows, and the first value after SIGCONT is the true one.
    let texts = runner.texts
    #expect(texts.first == "00:04" && texts.last == "00:00", "\(texts), marks: \(marks.all)")
    #expect(!texts.contains("00:03"), "00:03 fell due while stopped: \(texts), marks: \(marks.all)")
    #expect(texts.count == Set(texts).count, "no value twice: \(texts)")
    if runner.lines.count > 1, let cont = marks["cont"] {
      #expect(runner.lines[1].time - cont < 0.5, "the true value shows at once after SIGCONT")
      // Time left at SIGCONT, counted from the first line; checked unless it is near a whole second.
      let left = 4 - (cont - runner.lines[0].time)
      if abs(left - left.rounded()) > 0.15 {
        #expect(texts[1] == "00:0\(Int(left.rounded(.up)))", "\(texts), marks: \(marks.all)")
      }
    }
  }

  @Test("SIGINT exits 130, SIGTERM 143")
  func signals() async throws {
    for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 143)] {
      let runner = try CommandRunner(["1h", "--plain"])
      try await runner.waitForLines(1)
      runner.send(signal)
      #expect(try await runner.waitForExit() == status)
    }
  }

  @Test("A signal sent as soon as the first line is out is never lost (20 runs at once)")
  func earlySignals() async throws {
    // The handlers' dispatch sources register asynchronously; a signal in between used to be ignored.
    let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
      for _ in 0..<20 {
        group.addTask {
          let runner = try CommandRunner(["1h", "--plain"]) { index, runner in
            if index == 0 { runner.send(SIGTERM) }
          }
          return try await runner.waitForExit(timeout: 8)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 143, count: 20))
  }

  @Test(
    "format in several locales",
    arguments: [
      (["5400", "--style", "coarse", "--locale", "en"], "1.5 hours"),
      (["5400", "--style", "coarse", "--locale", "de"], "1,5 Stunden"),
      (["1.5h", "--style", "coarse", "--locale", "ru"], "1,5 часа"),
      (["2h", "--style", "coarse", "--locale", "cs"], "2 hodiny"),
      (["90s", "--style", "spoken", "--locale", "ru"], "Осталось: 1 минута 30 секунд"),
      (["1:02:05", "--style", "digital"], "1:02:05"),
      (["--style", "digital", "--", "-5s"], "-00:05"),
      (
        ["1h30m", "--locale", "en"],
        "digital  1:30:00\nunits    1 hr, 30 min\ncoarse   1.5 hours\nspoken   1 hour, 30 minutes left"
      ),
    ])
  func format(arguments: [String], expected: String) async throws {
    let result = try await CommandRunner.run(["format"] + arguments)
    #expect(result.status == 0, "stderr: \(result.errors)")
    #expect(result.output == expected)
  }

  @Test("ring --svg writes the core's SVG")
  func ringSVG() async throws {
    let result = try await CommandRunner.run(["ring", "75%", "--label", "45:00", "--svg"])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("<svg "))
    #expect(result.output.contains(">45:00</text>"))
    #expect(result.output.hasSuffix("</svg>"), "one document, no trailing blank line")
  }
}

/// Times recorded by the callbacks of a ``CommandRunner``.
final class Marks: Sendable {
  private let values = Mutex<[String: Double]>([:])

  func set(_ name: String, _ value: Double) { values.withLock { $0[name] = value } }
  subscript(name: String) -> Double? { values.withLock { $0[name] } }
  var all: [String: Double] { values.withLock { $0 } }
}
