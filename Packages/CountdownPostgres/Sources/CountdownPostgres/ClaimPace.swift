/// How many rows the next claim takes: about as many as the worker's follow-ups finished per second
/// lately (at least twice ``DeadlineExpiryWorker/concurrency``), so that a worker whose follow-ups are
/// slow leaves rows to the others, within a limit that starts at ``DeadlineExpiryWorker/claimBatch``,
/// halves when a claim fails and grows again while claims take less than a quarter of their time limit.
struct ClaimPace {
  let maximum: Int
  let concurrency: Int
  private(set) var limit: Int
  private var lastCompleted = 0
  private var lastClaim = ContinuousClock.now

  init(maximum: Int, concurrency: Int) {
    self.maximum = maximum
    self.concurrency = concurrency
    limit = maximum
  }

  /// The size of the next claim, given how many follow-ups have completed so far.
  mutating func size(completed: Int) -> Int {
    let now = ContinuousClock.now
    let seconds = max((now - lastClaim).timeInterval, 0.001)
    let rate = Double(completed - lastCompleted) / seconds
    lastCompleted = completed
    lastClaim = now
    let wanted = max(2 * concurrency, Int(min(rate, Double(maximum)).rounded(.up)))
    return max(1, min(limit, wanted))
  }

  /// A claim succeeded after `elapsed`, with statements limited to `limit`.
  mutating func claimed(in elapsed: Duration, limit timeLimit: Duration) {
    if elapsed * 4 < timeLimit { limit = min(maximum, limit * 2) }
  }

  /// A claim failed (timed out, or the connection broke).
  mutating func failed() {
    limit = max(1, limit / 2)
  }
}
