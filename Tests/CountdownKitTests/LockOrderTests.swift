import CountdownKit
import Testing

/// The package's locks are taken in the one order of `LockLevel` (the DocC article Locks); debug builds
/// check it at every acquisition.
@Suite struct LockOrderTests {
  @Test func levelsAreTakenInOrder() {
    #expect(LockLevel.engine < .posting && LockLevel.posting < .leaf)
  }

  #if DEBUG
    @Test func aThreadHoldingALockMayTakeOnlyHigherLevels() {
      let engine = Lock(0, level: .engine)
      let posting = Lock(0, level: .posting)
      let leaf = Lock(0, level: .leaf)
      engine.withLock { _ in
        #expect(LockOrder.held == 0b001)
        posting.withLock { _ in
          #expect(LockOrder.allows(.leaf, holding: LockOrder.held))
          #expect(!LockOrder.allows(.posting, holding: LockOrder.held))
          #expect(!LockOrder.allows(.engine, holding: LockOrder.held))
          leaf.withLock { _ in #expect(LockOrder.held == 0b111) }
        }
        #expect(LockOrder.held == 0b001)
      }
      #expect(LockOrder.held == 0)
    }

    @Test func takingALockOutOfOrderTraps() async {
      await #expect(processExitsWith: .failure) {
        let leaf = Lock(0, level: .leaf)
        let engine = Lock(0, level: .engine)
        leaf.withLock { _ in engine.withLock { _ in } }
      }
      await #expect(processExitsWith: .failure) {
        let mailbox = Lock(0, level: .posting)
        let outbox = Lock(0, level: .posting)
        mailbox.withLock { _ in outbox.withLock { _ in } }
      }
    }
  #endif
}
