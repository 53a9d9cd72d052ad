import CountdownKit
import Testing

/// The package's locks are taken in the one order of `LockLevel` (the DocC article Locks): the engine's
/// lock first, then at most one other; debug builds check it at every acquisition.
@Suite struct LockOrderTests {
  @Test func levelsAreTakenInOrder() {
    #expect(LockLevel.engine < .posting && LockLevel.posting < .leaf)
  }

  #if DEBUG
    @Test func underTheEngineLockOneOtherLockMayBeTaken() {
      let engine = Lock(0, level: .engine)
      let posting = Lock(0, level: .posting)
      let leaf = Lock(0, level: .leaf)
      engine.withLock { _ in
        #expect(LockOrder.held == 0b001)
        posting.withLock { _ in
          #expect(LockOrder.held == 0b011)
          #expect(!LockOrder.allows(.leaf, holding: LockOrder.held), "three locks at once")
          #expect(!LockOrder.allows(.posting, holding: LockOrder.held))
          #expect(!LockOrder.allows(.engine, holding: LockOrder.held))
        }
        leaf.withLock { _ in #expect(LockOrder.held == 0b101) }
        #expect(LockOrder.held == 0b001)
      }
      posting.withLock { _ in #expect(!LockOrder.allows(.leaf, holding: LockOrder.held)) }
      leaf.withLock { _ in #expect(LockOrder.held == 0b100) }
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
      await #expect(processExitsWith: .failure) {
        let engine = Lock(0, level: .engine)
        let mailbox = Lock(0, level: .posting)
        let leaf = Lock(0, level: .leaf)
        engine.withLock { _ in mailbox.withLock { _ in leaf.withLock { _ in } } }
      }
      await #expect(processExitsWith: .failure) {
        let first = Lock(0, level: .leaf)
        let second = Lock(0, level: .leaf)
        first.withLock { _ in second.withLock { _ in } }
      }
    }

    @Test func resumingAContinuationUnderALockTraps() async {
      await #expect(processExitsWith: .failure) {
        let (_, continuation) = AsyncStream.makeStream(of: Int.self)
        let leaf = Lock(0, level: .leaf)
        leaf.withLock { _ in _ = continuation.yieldUnlocked(1) }
      }
      await #expect(processExitsWith: .failure) {
        let (_, continuation) = AsyncStream.makeStream(of: Int.self)
        let engine = Lock(0, level: .engine)
        engine.withLock { _ in continuation.finishUnlocked() }
      }
      await #expect(processExitsWith: .failure) {
        let engine = Lock(0, level: .engine)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          engine.withLock { _ in continuation.resumeUnlocked() }
        }
      }
      // With no lock held, the same calls go through.
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      continuation.yieldUnlocked(1)
      continuation.finishUnlocked()
      var received: [Int] = []
      for await value in stream { received.append(value) }
      #expect(received == [1])
    }
  #endif
}
