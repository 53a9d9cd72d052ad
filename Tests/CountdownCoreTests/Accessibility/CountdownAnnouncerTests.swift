import CountdownCore
import Foundation
import TestSupport
import Testing

/// `CountdownAnnouncer`: milestones once each, the finish exactly once, nothing while paused, one
/// announcement for a jump, the minimum interval, and an accessibility value that changes silently.
@Suite struct CountdownAnnouncerTests {
  static let english = AnnouncementPolicy(style: CountdownFormatStyle(.spoken, locale: Locale(identifier: "en_US")))

  /// A countdown fed to an announcer as the app would: every update goes through `update`, and the
  /// announcements are collected with the remaining time they were made at.
  struct Feed {
    var announcer: CountdownAnnouncer<TestInstant>
    var countdown: Countdown<TestInstant>
    var now: TestInstant
    var said: [(remaining: Duration, announcement: CountdownAnnouncement)] = []

    init(policy: AnnouncementPolicy = CountdownAnnouncerTests.english, left: Duration) {
      announcer = CountdownAnnouncer(policy: policy)
      now = TestInstant(.seconds(1_000))
      countdown = Countdown(duration: left, startingAt: now)
      update()
    }

    mutating func update() {
      if let announcement = announcer.update(countdown, at: now) {
        said.append((countdown.remaining(at: now), announcement))
      }
    }

    /// Moves time on by `step`, `count` times, updating after each.
    mutating func run(_ count: Int, by step: Duration = .seconds(1)) {
      for _ in 0..<count {
        now = now + step
        update()
      }
    }

    /// Changes the countdown at the current instant and updates.
    mutating func change(_ transform: (Countdown<TestInstant>, TestInstant) -> Countdown<TestInstant>) {
      countdown = transform(countdown, now)
      update()
    }

    var kinds: [CountdownAnnouncement.Kind] { said.map(\.announcement.kind) }
  }

  @Test func eachMilestoneOnceThenTheFinishOnceWhileTheValueChangesSilently() {
    var feed = Feed(left: .seconds(720))
    var values: Set<String> = []
    for _ in 0..<800 {
      feed.run(1)
      values.insert(try! #require(feed.announcer.accessibilityValue))
    }
    #expect(feed.kinds == AnnouncementPolicy.standardMilestones.map { .milestone($0) } + [.finished])
    for (remaining, announcement) in feed.said {
      if case .milestone(let milestone) = announcement.kind {
        #expect(remaining == milestone)
        #expect(announcement.text == Self.english.style.format(milestone))
      }
    }
    #expect(feed.said.first?.announcement.text == "10 minutes left")
    #expect(feed.said.last?.announcement.text == "Time is up")
    // A new accessibility value every second down to zero, then each second of overtime: 800 values
    // for 6 announcements.
    #expect(values.count == 800)
    #expect(feed.announcer.accessibilityValue == "1 minute, 20 seconds over")
  }

  @Test func theFirstUpdateSaysNothing() {
    var feed = Feed(left: .seconds(240))
    #expect(feed.said.isEmpty && feed.announcer.accessibilityValue == "4 minutes left")
    feed.run(240)
    #expect(feed.kinds == [.milestone(.seconds(60)), .milestone(.seconds(30)), .milestone(.seconds(10)), .finished])
    var finished = Feed(left: .seconds(-3))
    finished.run(5)
    #expect(finished.said.isEmpty, "a countdown first seen finished is not announced")
  }

  @Test func nothingWhilePausedAndWhatIsReachedMeanwhileIsSilent() {
    var feed = Feed(left: .seconds(610))
    feed.run(7)
    feed.change { countdown, now in countdown.paused(at: now) }
    feed.run(600)
    #expect(feed.said.isEmpty)
    // Retargeted while paused, past the 10- and 5-minute milestones.
    feed.change { countdown, _ in countdown.extended(by: .seconds(-330)) }
    feed.run(5)
    #expect(feed.said.isEmpty)
    feed.change { countdown, now in countdown.resumed(at: now) }
    feed.run(300)
    #expect(feed.kinds == [.milestone(.seconds(60)), .milestone(.seconds(30)), .milestone(.seconds(10)), .finished])
  }

  @Test func aRetargetPastAMilestoneAnnouncesItWithTheTimeLeft() {
    var feed = Feed(left: .seconds(650))
    feed.run(60)
    #expect(feed.kinds == [.milestone(.seconds(600))])
    feed.change { countdown, now in countdown.retargeted(to: now + .seconds(290)) }
    #expect(feed.kinds == [.milestone(.seconds(600)), .milestone(.seconds(300))])
    #expect(feed.said.last?.announcement.text == "4 minutes, 50 seconds left")
  }

  @Test func moreTimeRearmsTheMilestonesItMovesBackAbove() {
    var feed = Feed(left: .seconds(305))
    feed.run(65)
    #expect(feed.kinds == [.milestone(.seconds(300))])
    feed.change { countdown, _ in countdown.extended(by: .seconds(120)) }
    feed.run(61)
    #expect(feed.kinds == [.milestone(.seconds(300)), .milestone(.seconds(300))])
  }

  @Test func aJumpOverSeveralMilestonesIsOneAnnouncementOfTheLatest() {
    var feed = Feed(left: .seconds(605))
    feed.run(1)
    // Suspended from 10:04 left to 0:45 left: the 10-, 5- and 1-minute milestones passed meanwhile.
    feed.run(1, by: .seconds(559))
    #expect(feed.kinds == [.milestone(.seconds(60))])
    #expect(feed.said.last?.announcement.text == "45 seconds left")
    // Then past the 30 s, 10 s and the finish at once: the finish only.
    feed.run(1, by: .seconds(60))
    #expect(feed.kinds == [.milestone(.seconds(60)), .finished])
  }

  @Test func theFinishExactlyOnceEachTimeItFinishes() {
    var feed = Feed(left: .seconds(3))
    feed.run(10, by: .milliseconds(500))
    feed.change { countdown, now in countdown.paused(at: now) }
    feed.run(10)
    feed.change { countdown, now in countdown.resumed(at: now) }
    feed.run(100)
    #expect(feed.kinds == [.finished])
    // Extended after the finish: it runs, and finishes again.
    feed.change { countdown, now in countdown.retargeted(to: now + .seconds(4)) }
    feed.run(10)
    #expect(feed.kinds == [.finished, .finished])
  }

  @Test func milestonesWithinTheMinimumIntervalAreSkippedButNotTheFinish() {
    let policy = AnnouncementPolicy(
      milestones: [.seconds(20), .seconds(18), .seconds(10), .seconds(1), .zero, .seconds(-5), .seconds(10)],
      minimumInterval: .seconds(5), style: Self.english.style)
    #expect(policy.milestones == [.seconds(20), .seconds(18), .seconds(10), .seconds(1)])
    var feed = Feed(policy: policy, left: .seconds(25))
    feed.run(50, by: .milliseconds(500))
    #expect(
      feed.kinds == [.milestone(.seconds(20)), .milestone(.seconds(10)), .milestone(.seconds(1)), .finished])
  }

  @Test func theFinishCanBeLeftUnsaidOrSaidInYourWords() {
    var silent = Feed(policy: AnnouncementPolicy(milestones: [.seconds(2)], announcesFinish: false), left: .seconds(5))
    silent.run(10)
    #expect(silent.kinds == [.milestone(.seconds(2))])
    var custom = Feed(policy: AnnouncementPolicy(milestones: [], finishedText: "Turn over"), left: .seconds(5))
    custom.run(10)
    #expect(custom.said.map(\.announcement.text) == ["Turn over"])
  }

  @Test(arguments: [
    ("ru_RU", "Время вышло"), ("cs_CZ", "Čas vypršel"), ("de_DE", "Die Zeit ist um"), ("ko_KR", "시간 종료"),
    ("zh_Hans_CN", "时间到"), ("zh_Hant_TW", "時間到"), ("en_GB", "Time is up"),
  ])
  func announcementsAreInThePolicysLanguage(identifier: String, finished: String) {
    let style = CountdownFormatStyle(.spoken, locale: Locale(identifier: identifier))
    var feed = Feed(policy: AnnouncementPolicy(style: style), left: .seconds(65))
    feed.run(70)
    #expect(
      feed.said.map(\.announcement.text) == [.seconds(60), .seconds(30), .seconds(10)].map(style.format) + [finished])
    #expect(feed.announcer.accessibilityValue == style.format(.seconds(-5)))
  }

  @Test func aLanguageWithoutAPhraseSaysZero() {
    let style = CountdownFormatStyle(.spoken, locale: Locale(identifier: "fr_FR"))
    var feed = Feed(policy: AnnouncementPolicy(milestones: [], style: style), left: .seconds(2))
    feed.run(3)
    #expect(feed.said.map(\.announcement.text) == [style.format(.zero)])
  }

  /// An app that wakes only at the milestone display's changes hears exactly what an app updating every
  /// 10 ms hears, at the same remaining times.
  @Test func theMilestoneDisplayWakesForEveryAnnouncement() {
    let seed = SeededGenerator.testSeed()
    print("CountdownAnnouncerTests.theMilestoneDisplayWakesForEveryAnnouncement seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<20 {
      // The app that updates every 10 ms hears one announcement for what falls within one of its ticks
      // (two milestones, or a milestone and the finish), where an app woken at each change hears each:
      // keep milestones farther apart than a tick, from each other and from zero.
      var milestones: [Duration] = []
      for _ in 0..<Int.random(in: 1...6, using: &generator) {
        let milestone = generator.duration(milliseconds: 21...120_000)
        let apart = milestones.allSatisfy { $0 - milestone > .milliseconds(20) || milestone - $0 > .milliseconds(20) }
        if apart { milestones.append(milestone) }
      }
      let policy = AnnouncementPolicy(milestones: milestones, minimumInterval: .zero, style: Self.english.style)
      let left = generator.duration(milliseconds: 1...130_000)
      var everyTick = Feed(policy: policy, left: left)
      everyTick.run(Int(left / .milliseconds(10)) + 200, by: .milliseconds(10))
      var atChanges = Feed(policy: policy, left: left)
      let start = atChanges.now
      let changes = atChanges.countdown.changes(
        of: policy.milestoneDisplay, from: start, through: start + left + .seconds(1))
      for change in changes.dropFirst() {
        atChanges.now = change.at
        atChanges.update()
        #expect(change.value == policy.milestones.count + 1 || change.value > 0)
      }
      #expect(atChanges.kinds == everyTick.kinds)
      #expect(atChanges.kinds.count == policy.milestones.filter { $0 < left }.count + 1)
    }
  }
}
