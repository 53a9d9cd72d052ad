extension CountdownSnapshot {
  /// Whether a view showing this snapshot would look different from one showing `other`: the display
  /// value, or the paused or finished flag, differs. The engine delivers a snapshot only when one of
  /// these changes; the observable models publish only then, whatever they are handed.
  func looksDifferent(from other: CountdownSnapshot?) -> Bool {
    guard let other else { return true }
    return value != other.value || isPaused != other.isPaused || isFinished != other.isFinished
  }
}
