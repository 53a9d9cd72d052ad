/// Decides when a countdown speaks to VoiceOver users: a pure state machine fed snapshots, which
/// returns the announcements to post and keeps an accessibility value current without announcing it.
///
/// Feed it every snapshot the app receives (or a countdown and an instant); it returns a
/// ``CountdownAnnouncement`` when one is due, `nil` otherwise:
///
/// ```swift
/// var announcer = CountdownAnnouncer<ContinuousClock.Instant>(policy: .standard)
/// if let announcement = announcer.update(snapshot) {
///   AccessibilityNotification.Announcement(announcement.text).post()
/// }
/// ```
///
/// The rules, from the ``AnnouncementPolicy``:
/// - The first update sets where the countdown stands and says nothing: milestones already behind it
///   are not announced.
/// - A milestone is announced when the remaining time comes down to it while the countdown runs, with
///   the time left at that moment ("4 minutes, 58 seconds left" when the update comes two seconds late).
///   Several reached at once (a retarget, a late update after a suspension) give one announcement, for
///   the latest of them, never a burst.
/// - A milestone reached within ``AnnouncementPolicy/minimumInterval`` of the previous announcement is
///   not announced.
/// - The finish is announced once, when the remaining time reaches zero, however many updates show it
///   and whatever the interval; a countdown extended after its finish can finish, and be announced,
///   again.
/// - Nothing is announced while the countdown is paused; what it reaches then (a retarget while paused)
///   is taken as reached, silently.
/// - More time (an extension, a retarget later) re-arms the milestones it moves back above.
///
/// ``accessibilityValue`` says the time left of the latest update, whatever was announced: set it as
/// the countdown view's accessibility value, which VoiceOver reads when the user moves to the view.
public struct CountdownAnnouncer<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  /// When and how to announce.
  public let policy: AnnouncementPolicy
  /// The remaining time of the latest update; `nil` before the first.
  public private(set) var remaining: Duration?
  /// Whether the countdown was paused at the latest update.
  public private(set) var isPaused = false
  /// How many milestones (and the finish, last) have been reached; `nil` before the first update.
  private var level: Int?
  /// When the latest announcement was made.
  private var lastAnnouncement: Instant?

  /// An announcer applying `policy`.
  public init(policy: AnnouncementPolicy = .standard) {
    self.policy = policy
  }

  /// Takes in a snapshot the app received; returns what to announce, if anything.
  public mutating func update<Value>(_ snapshot: CountdownSnapshot<Value, Instant>) -> CountdownAnnouncement? {
    update(remaining: snapshot.remaining, isPaused: snapshot.isPaused, at: snapshot.instant)
  }

  /// Takes in `countdown` as it is at `now`; returns what to announce, if anything.
  public mutating func update(_ countdown: Countdown<Instant>, at now: Instant) -> CountdownAnnouncement? {
    update(remaining: countdown.remaining(at: now), isPaused: countdown.isPaused, at: now)
  }

  /// Takes in the time left at `now` and whether the countdown is paused; returns what to announce, if
  /// anything.
  public mutating func update(remaining: Duration, isPaused: Bool, at now: Instant) -> CountdownAnnouncement? {
    self.remaining = remaining
    self.isPaused = isPaused
    let reached = policy.level(remaining: remaining)
    defer { level = reached }
    guard let level, reached > level, !isPaused else { return nil }
    if reached == policy.finishedLevel {
      guard policy.announcesFinish else { return nil }
      lastAnnouncement = now
      return CountdownAnnouncement(kind: .finished, text: policy.finishedWords)
    }
    if let lastAnnouncement, now < lastAnnouncement.advanced(by: policy.minimumInterval) { return nil }
    lastAnnouncement = now
    return CountdownAnnouncement(kind: .milestone(policy.milestones[reached - 1]), text: policy.style.format(remaining))
  }

  /// The time left of the latest update in the policy's words ("2 minutes, 5 seconds left"); `nil`
  /// before the first update. It changes with every update and is never announced: VoiceOver reads it
  /// when the user moves to the view.
  ///
  /// Formatted on each read (some tens of microseconds): read it when the view is drawn or asked.
  public var accessibilityValue: String? {
    remaining.map { policy.style.format($0) }
  }
}
