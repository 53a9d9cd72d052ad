import CountdownKit
import Foundation

/// What `countdown <time>…` was asked to do, checked: the countdowns to run one after another and
/// how to show them.
struct RunPlan: Sendable {
  /// One countdown of the sequence.
  struct Item: Sendable {
    /// What it counts to; nil for a stopwatch.
    var target: TimeSpec.Target?
    var title: String?
  }

  var items: [Item]
  var style: CountdownFormatStyle.Preset
  var locale: Locale
  var countsUp = false
  var overtime = false
  var bell = true
  var blink = false
  var endText: String?
  var quitAfter: Duration?
  var exec: String?
  /// How long an `--exec` command may run before its process group is ended.
  var execTimeout = EndCommand.defaultTimeout
  var outfile: OutputFile?
  var windowTitle = true
  var voice = false

  /// Whether the live view stays after the last countdown ends, until a key or `--quit-after`.
  var staysAtEnd: Bool { endText != nil || blink }

  /// "2/4" for the item at `index`, or nil for a single countdown.
  func position(of index: Int) -> String? {
    items.count > 1 ? "\(index + 1)/\(items.count)" : nil
  }

  /// The setup of item `index`, started now on `engine`.
  func setup(_ index: Int, on engine: Engine) throws -> CountdownSetup {
    try CountdownSetup(
      target: items[index].target, engine: engine, style: style, locale: locale, countsUp: countsUp,
      overtime: overtime)
  }
}

/// The side effects a run has whether it is shown live or printed: `--outfile`, `--exec`, `--voice`.
@MainActor
final class RunEffects {
  private let plan: RunPlan
  private let endCommand: EndCommand?
  private let speaker: Speaker?
  private var announcements: Announcements?
  private var lastText: String?
  private var lastAnnouncement: Int?

  /// - Throws: ``SpeakerError`` with `--voice` when no speech program is found.
  init(plan: RunPlan) throws {
    self.plan = plan
    endCommand = plan.exec.map { EndCommand($0, timeout: plan.execTimeout) }
    speaker = plan.voice ? try Speaker(locale: plan.locale) : nil
  }

  /// The announcement schedule for a countdown of `total`, with `--voice`.
  func announcements(total: Duration?) -> Announcements? {
    guard plan.voice, let total, total > .zero, !plan.countsUp else { return nil }
    return Announcements(total: total, locale: plan.locale)
  }

  /// A countdown of the sequence starts with `remaining` left.
  func started(remaining: Duration, announcements: Announcements?) {
    self.announcements = announcements
    lastAnnouncement = nil
    if let announcements, remaining > .zero { speaker?.say(announcements.phrase(passed: 0, remaining: remaining)) }
  }

  /// The shown value changed.
  func changed(_ value: CommandDisplay.Value) {
    if value.text != lastText {
      lastText = value.text
      plan.outfile?.write(value.text)
    }
    if let passed = value.announcement, let last = lastAnnouncement, passed > last, let announcements {
      speaker?.say(announcements.phrase(passed: passed, remaining: .zero))
    }
    lastAnnouncement = value.announcement
  }

  /// Countdown `index` reached zero.
  func ended(_ index: Int) {
    endCommand?.run(title: plan.items[index].title, end: Date(), index: index, count: plan.items.count)
  }

  /// Waits for the commands and the speech still running (at exit).
  func finish() async {
    await endCommand?.waitForAll()
    await speaker?.finish()
  }
}
