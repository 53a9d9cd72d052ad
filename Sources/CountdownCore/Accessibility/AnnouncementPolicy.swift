/// When a countdown speaks up for VoiceOver: the milestones worth an announcement, how often at most,
/// and in which words.
///
/// The default, ``standard``, announces 10 minutes, 5 minutes, 1 minute, 30 seconds and 10 seconds
/// left, then the finish, at most once every 5 seconds, in the spoken style of the current locale
/// ("1 minute left", "Time is up"). A ``CountdownAnnouncer`` applies a policy to the snapshots it is
/// fed.
///
/// ```swift
/// // A two-hour fitting window: an hour, half an hour, 10 minutes and 1 minute before it closes.
/// let policy = AnnouncementPolicy(milestones: [.seconds(3_600), .seconds(1_800), .seconds(600), .seconds(60)])
/// ```
public struct AnnouncementPolicy: Hashable, Sendable {
  /// The remaining times announced as they are reached: positive, each once, largest first.
  public let milestones: [Duration]
  /// The shortest time between two milestone announcements; a milestone reached sooner after the last
  /// announcement is not announced (the finish always is).
  public var minimumInterval: Duration
  /// Whether the finish is announced.
  public var announcesFinish: Bool
  /// How the time left is put into words: the spoken preset by default, whose locale is the
  /// announcements' language.
  public var style: CountdownFormatStyle
  /// What is said at the finish; `nil` for the style's own words ("Time is up", "Время вышло", and so
  /// on; "0 seconds" in languages it has no phrase for).
  public var finishedText: String?

  /// The milestones of ``standard``: 10 minutes, 5 minutes, 1 minute, 30 seconds and 10 seconds left.
  public static var standardMilestones: [Duration] {
    [.seconds(600), .seconds(300), .seconds(60), .seconds(30), .seconds(10)]
  }

  /// 10 minutes, 5 minutes, 1 minute, 30 seconds and 10 seconds left, then the finish, at most once
  /// every 5 seconds, spoken in the current locale.
  public static var standard: AnnouncementPolicy { AnnouncementPolicy() }

  /// A policy announcing `milestones` (and the finish, if `announcesFinish`) no more often than every
  /// `minimumInterval`.
  ///
  /// - Parameters:
  ///   - milestones: Remaining times to announce as they are reached, in any order; those that are not
  ///     positive, and repeats, are left out.
  ///   - minimumInterval: The shortest time between two milestone announcements.
  ///   - announcesFinish: Whether to announce the finish.
  ///   - style: The words for the time left; its locale is the announcements' language.
  ///   - finishedText: What to say at the finish instead of the style's own words.
  public init(
    milestones: [Duration] = AnnouncementPolicy.standardMilestones,
    minimumInterval: Duration = .seconds(5),
    announcesFinish: Bool = true,
    style: CountdownFormatStyle = CountdownFormatStyle(.spoken),
    finishedText: String? = nil
  ) {
    self.milestones = Array(Set(milestones.filter { $0 > .zero })).sorted(by: >)
    self.minimumInterval = minimumInterval
    self.announcesFinish = announcesFinish
    self.style = style
    self.finishedText = finishedText
  }

  /// A display that changes exactly when a milestone is reached and at the finish: its value is how many
  /// have been reached (the finish counts last).
  ///
  /// Add the countdown to an engine with this display, or with it ``CountdownDisplay/combined(with:)``
  /// the one your label shows, so that the engine wakes for every milestone even when nothing else
  /// changes.
  public var milestoneDisplay: PhaseDisplay<Int> {
    var phases = milestones.enumerated().map { PhaseDisplay.Phase(startsAt: $0.element, value: $0.offset + 1) }
    phases.append(PhaseDisplay.Phase(startsAt: .zero, value: milestones.count + 1))
    return PhaseDisplay(initial: 0, phases: phases)
  }

  /// How many milestones have been reached with `remaining` left, the finish counting as one more:
  /// ``milestoneDisplay``'s value, without building the display.
  func level(remaining: Duration) -> Int {
    if remaining <= .zero { return milestones.count + 1 }
    return milestones.prefix { remaining <= $0 }.count
  }

  /// The level at which the countdown has finished.
  var finishedLevel: Int { milestones.count + 1 }

  /// The words said at the finish.
  var finishedWords: String { finishedText ?? style.finishedPhrase() }
}
