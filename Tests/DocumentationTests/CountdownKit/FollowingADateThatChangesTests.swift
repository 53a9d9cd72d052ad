// Runs the Firestore examples of CountdownKit.docc's article on following a date that changes against
// the FirebaseFirestore stand-in (NOT Firebase): the document's date is written, moved, paused and
// deleted as a server would.
#if os(Linux)
  import CountdownKit
  import FirebaseFirestore
  import Foundation
  import Testing

  @MainActor @Suite struct FollowingADateThatChangesTests {
    struct Revoked: Error {}

    @Test func theAuctionModelFollowsItsDocument() async throws {
      let engine = CountdownEngine()
      defer { engine.shutdown() }
      let db = Firestore()
      let document = db.collection("auctions").document("42")
      var auction: Auction? = Auction(document, engine: engine)
      weak let countdown = auction?.countdown
      try await waitUntil { db._listenerCount == 1 }
      #expect(countdown?.snapshot == nil, "no document yet: nothing shown")

      db._setData(["endsAt": Date().addingTimeInterval(90)], at: "auctions/42")
      // Real time runs on (a loaded machine may hold the main actor for seconds): bounds, not values.
      try await waitUntil { countdown?.value.map { $0 > .zero && $0 <= .seconds(90) } == true }
      db._setData(["endsAt": Date().addingTimeInterval(3_600)], at: "auctions/42")
      try await waitUntil { countdown?.value.map { $0 > .seconds(90) } == true }
      db._deleteDocument(at: "auctions/42")
      try await waitUntil { countdown?.snapshot == nil }

      auction = nil
      #expect(countdown == nil, "the model went with the auction")
      try await waitUntil { db._listenerCount == 0 }
    }

    @Test func aPausedAuctionStandsStill() async throws {
      let engine = CountdownEngine()
      defer { engine.shutdown() }
      let db = Firestore()
      let document = db.collection("auctions").document("7")
      let countdown = FollowingCountdownModel(engine: engine, display: .seconds)
      PausableAuction.follow(document, with: countdown)
      let now = Date()
      db._setData(["endsAt": now.addingTimeInterval(600), "pausedAt": now, "secondsLeft": 120], at: "auctions/7")
      try await waitUntil { countdown.isPaused }
      #expect(countdown.value == .seconds(120))
      db._setData(["endsAt": Date().addingTimeInterval(3_600)], at: "auctions/7")
      try await waitUntil { !countdown.isPaused }
      #expect(countdown.value.map { $0 > .seconds(120) } == true, "running to the new end")
    }

    @Test func theListenerPushesUntilItIsStopped() throws {
      let engine = CountdownEngine()
      defer { engine.shutdown() }
      let db = Firestore()
      let listener = AuctionListener(engine: engine)
      db._setData(["endsAt": Date().addingTimeInterval(60)], at: "auctions/9")
      listener.start(db.collection("auctions").document("9"))
      #expect(try #require(listener.countdown.value) > .seconds(55), "the first snapshot, at once")
      db._deleteDocument(at: "auctions/9")
      #expect(listener.countdown.snapshot == nil)
      listener.stop()
      #expect(db._listenerCount == 0)
      db._setData(["endsAt": Date().addingTimeInterval(60)], at: "auctions/9")
      #expect(listener.countdown.snapshot == nil, "no longer listening")
    }

    /// Waits, by yielding (never sleeping), until `condition` holds, for at most 30 s in which it
    /// kept not holding (a yield longer than 100 ms counts as 100 ms: other tests held the main actor).
    func waitUntil(_ condition: () -> Bool) async throws {
      var budget = Duration.seconds(30)
      var last = ContinuousClock.now
      while !condition(), budget > .zero {
        await Task.yield()
        let now = ContinuousClock.now
        budget -= min(last.duration(to: now), .milliseconds(100))  // longer: the executor was busy elsewhere
        last = now
      }
      try #require(condition())
    }
  }
#endif
