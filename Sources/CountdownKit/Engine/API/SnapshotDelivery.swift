/// When a subscriber's `onChange` is called.
public enum SnapshotDelivery: Hashable, Sendable {
  /// When what the display shows changes: its value, or the paused or finished flag. What views need.
  case whenShownChanges
  /// Also at every change made to the countdown (a pause, resume, retarget or extension, a date that
  /// moved with the wall clock), even one that leaves what the display shows as it is: what plans need
  /// that depend on the countdown's end, not only on its value (an animation the system runs, a
  /// widget's timeline). Several changes before the main actor runs are one call, with the newest
  /// snapshot.
  case whenCountdownChanges
}
