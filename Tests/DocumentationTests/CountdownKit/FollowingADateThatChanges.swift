// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's article on following a date that changes,
// byte for byte: keep the two in step (.ci/check-doc-blocks).
#if os(Linux)
  import CountdownKit
  import FirebaseFirestore
  import Foundation
  import FoundationNetworking
  import GRDB
  import SwiftUI
  import UIKit

  /// The article's examples, as functions of what they use.
  @MainActor enum FollowingADateThatChangesArticle {
    static func follow(endDates: AsyncStream<Date>, engine: CountdownEngine<ContinuousClock>, label: UILabel) async {
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
      for await snapshot in engine.snapshots(following: endDates, display: .adaptive) {
        label.text = snapshot.value.formatted(.countdown(.coarse))
      }
      // end docs
    }

    static func followARow(
      orderID: Order.ID, dbQueue: DatabaseQueue, engine: CountdownEngine<ContinuousClock>, label: UILabel
    ) async {
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
      let observation = ValueObservation.tracking { db in
        try Date.fetchOne(db, sql: "SELECT fittingEndsAt FROM orders WHERE id = ?", arguments: [orderID])
      }

      // A deleted row (nil) keeps the countdown going to the last date it had.
      let endDates = observation.values(in: dbQueue).compactMap { $0 }

      for await snapshot in engine.snapshots(following: endDates, total: .seconds(7_200), display: .adaptive) {
        label.text = snapshot.value.formatted(.countdown(.coarse))
      }
      // end docs
    }

    static func rowDates(observation: ValueObservation<ValueReducers.Fetch<Date?>>, dbQueue: DatabaseQueue) -> AsyncStream<Date> {
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
      let endDates = AsyncStream<Date> { continuation in
        let reader = Task {
          for try await date in observation.values(in: dbQueue) {
            if let date { continuation.yield(date) }
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in reader.cancel() }
      }
      // end docs
      return endDates
    }

    static func auction(
      session: URLSession, auctionURL: URL, decoder: JSONDecoder, engine: CountdownEngine<ContinuousClock>, label: UILabel
    ) async {
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
      let endDates = AsyncStream<Date> { continuation in
        let socket = session.webSocketTask(with: auctionURL)
        let reader = Task {
          while let message = try? await socket.receive() {
            if case .string(let text) = message, let update = try? decoder.decode(AuctionUpdate.self, from: Data(text.utf8)) {
              continuation.yield(update.endsAt)
            }
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in
          reader.cancel()
          socket.cancel(with: .goingAway, reason: nil)
        }
        socket.resume()
      }

      for await snapshot in engine.snapshots(following: endDates, display: .seconds) {
        label.text = snapshot.value.formatted(.countdown(.digital))
      }
      // end docs
    }
  }

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
  @MainActor final class Auction {
    let countdown: FollowingCountdownModel<RoundedDisplay, ContinuousClock>

    init(_ document: DocumentReference, engine: CountdownEngine<ContinuousClock>) {
      countdown = FollowingCountdownModel(engine: engine, display: .seconds)
      countdown.follow(document.snapshots.map { ($0.get("endsAt") as? Timestamp)?.dateValue() })
    }
  }
  // end docs

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
  struct AuctionBanner: View {
    let countdown: FollowingCountdownModel<RoundedDisplay, ContinuousClock>

    var body: some View {
      if let left = countdown.value, !countdown.isFinished {
        Text(left.formatted(.countdown(.digital)))
      } else {
        Text(countdown.snapshot == nil ? "No auction" : "Closed")
      }
    }
  }
  // end docs

  /// The article's pausable auction: what the document says, as a stored countdown.
  @MainActor enum PausableAuction {
    static func follow(_ document: DocumentReference, with countdown: FollowingCountdownModel<RoundedDisplay, ContinuousClock>) {
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
      countdown.follow(document.snapshots.map { snapshot -> StoredCountdown? in
        guard let end = (snapshot.get("endsAt") as? Timestamp)?.dateValue() else { return nil }
        if let pausedAt = (snapshot.get("pausedAt") as? Timestamp)?.dateValue(),
          let left = snapshot.get("secondsLeft") as? Int
        {
          return try? StoredCountdown(state: .paused(remaining: .seconds(left), since: pausedAt), total: nil)
        }
        return try? StoredCountdown(end: end)
      })
      // end docs
    }
  }

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
  @MainActor final class AuctionListener {
    let countdown: FollowingCountdownModel<RoundedDisplay, ContinuousClock>
    private var registration: (any ListenerRegistration)?

    init(engine: CountdownEngine<ContinuousClock>) {
      countdown = FollowingCountdownModel(engine: engine, display: .seconds)
    }

    func start(_ document: DocumentReference) {
      let countdown = countdown
      registration = document.addSnapshotListener { snapshot, _ in
        countdown.update(to: (snapshot?.get("endsAt") as? Timestamp)?.dateValue())
      }
    }

    func stop() {
      registration?.remove()
      registration = nil
    }
  }
  // end docs
#endif
