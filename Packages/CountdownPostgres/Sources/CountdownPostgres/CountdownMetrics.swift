public import CoreMetrics

/// What a ``DeadlineExpiryWorker`` and a ``PostgresDeadlineFollower`` count, through swift-metrics: the
/// factory the process bootstrapped (`MetricsSystem.bootstrap`), or the one given to them. Labels, as a
/// Prometheus exporter shows them:
///
/// | label | kind | what |
/// |---|---|---|
/// | `countdown_expiries_total` | counter | rows this worker expired (attempt 1) |
/// | `countdown_claims_total` | counter | ids this worker tried to claim |
/// | `countdown_claims_won_total` | counter | claims won (expiries and retries) |
/// | `countdown_follow_ups_total` | counter, `outcome` | follow-ups ended: `recorded`, `failed`, `discarded`, `abandoned` |
/// | `countdown_leases_lost_total` | counter | follow-ups given up because their lease could not be kept |
/// | `countdown_swept_unannounced_total` | counter | due rows the sweep found that no notification announced |
/// | `countdown_expiry_lateness_seconds` | timer | `expired_at - ends_at` of each expiry |
/// | `countdown_follower_lag_seconds` | timer | from a heartbeat marker's send to its arrival through the channel: how far behind the table the follower is |
public struct CountdownMetrics: Sendable {
  let expiries: Counter
  let claims: Counter
  let claimsWon: Counter
  let recorded: Counter
  let failed: Counter
  let discarded: Counter
  let abandoned: Counter
  let leasesLost: Counter
  let sweptUnannounced: Counter
  let lateness: CoreMetrics.Timer
  let followerLag: CoreMetrics.Timer

  /// The metrics of the table `table`, made by `factory` (the bootstrapped one when nil); each carries
  /// the dimension `table` (`schema.name`).
  public init(table: DeadlineTable, factory: (any MetricsFactory)? = nil) {
    let factory = factory ?? MetricsSystem.factory
    let table = [("table", table.qualifiedName)]
    func counter(_ label: String, _ extra: [(String, String)] = []) -> Counter {
      Counter(label: label, dimensions: table + extra, factory: factory)
    }
    expiries = counter("countdown_expiries_total")
    claims = counter("countdown_claims_total")
    claimsWon = counter("countdown_claims_won_total")
    recorded = counter("countdown_follow_ups_total", [("outcome", "recorded")])
    failed = counter("countdown_follow_ups_total", [("outcome", "failed")])
    discarded = counter("countdown_follow_ups_total", [("outcome", "discarded")])
    abandoned = counter("countdown_follow_ups_total", [("outcome", "abandoned")])
    leasesLost = counter("countdown_leases_lost_total")
    sweptUnannounced = counter("countdown_swept_unannounced_total")
    lateness = CoreMetrics.Timer(label: "countdown_expiry_lateness_seconds", dimensions: table, factory: factory)
    followerLag = CoreMetrics.Timer(label: "countdown_follower_lag_seconds", dimensions: table, factory: factory)
  }
}
