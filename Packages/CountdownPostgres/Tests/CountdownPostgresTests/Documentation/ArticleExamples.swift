import CountdownKit
import CountdownPostgres
import Foundation

/// The Swift blocks of the DocC catalog, compiled (not run: they need a server at db.internal). Each
/// region must equal its block byte for byte (checked by `.ci/check-doc-blocks`).
enum ArticleExamples {
  /// What the worker's follow-up calls.
  struct OrderService {
    func close(_ id: Int64) async throws {}
  }

  static func editing() async throws {
    // docs: Sources/CountdownPostgres/CountdownPostgres.docc/Articles/DeadlinesInPostgreSQL.md
    let location = try PostgresLocation(url: "postgres://app@db.internal:5432/shop")
    let table = try DeadlineTable(name: "orders")
    let deadlines = try await PostgresDeadlines.connect(to: location, table: table, create: true)
    let id = try await deadlines.add(title: "Fitting: Ada L.", endsAt: Date().addingTimeInterval(2_700))
    try await deadlines.setEnd(of: id, to: Date().addingTimeInterval(5_400), now: Date())
    // end docs
  }

  static func following(location: PostgresLocation, table: DeadlineTable) async throws {
    // docs: Sources/CountdownPostgres/CountdownPostgres.docc/Articles/DeadlinesInPostgreSQL.md
    let engine = CountdownEngine()
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(location: location, table: table)
    try await board.follow(follower, total: .seconds(7_200))
    // end docs
  }

  static func expiring(location: PostgresLocation, table: DeadlineTable, orders: OrderService) async throws {
    // docs: Sources/CountdownPostgres/CountdownPostgres.docc/Articles/DeadlinesInPostgreSQL.md
    let worker = DeadlineExpiryWorker(location: location, table: table, lease: .seconds(60))
    try await worker.run { expired in
      try await orders.close(expired.id)
    }
    // end docs
  }
}
