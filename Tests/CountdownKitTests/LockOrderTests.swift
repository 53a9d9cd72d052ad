import CountdownKit
import CountdownTesting
import Foundation
import TestSupport
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

    /// A board lets go of a removed handler, and of its handlers when it ends, after letting go of its
    /// lock: a handler that holds another board's observation releases it, which takes that
    /// observation's lock and the other board's (a leaf under a leaf traps here otherwise).
    @MainActor
    @Test func aBoardLetsGoOfItsHandlersWithNoLockHeld() {
      let (engine, _) = makeManualEngine()
      let finishing = engine.board(of: Int.self, display: .seconds)
      var changing: CountdownBoard<Int, RoundedDisplay, ManualClock>? = engine.board(
        of: Int.self, display: .seconds, values: .everyRow)
      var calls = 0
      func holding(_ inner: BoardObservation) -> @MainActor @Sendable (Int) -> Void {
        { _ in withExtendedLifetime(inner) {} }
      }
      // A finish handler holding a changes observation, cancelled.
      let outer = finishing.onFinish(holding(changing!.onChanges { _ in calls += 1 }))
      outer.cancel()
      // A changes handler holding a finish observation, dropped when its board goes.
      func keeping(_ inner: BoardObservation)
        -> @MainActor @Sendable (CountdownBoard<Int, RoundedDisplay, ManualClock>.Changes) -> Void
      {
        { _ in withExtendedLifetime(inner) {} }
      }
      let kept = changing?.onChanges(keeping(finishing.onFinish { _ in calls += 1 }))
      changing = nil
      withExtendedLifetime(kept) {}
      #expect(calls == 0)
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

/// The DocC article Locks lists every lock: each file of CountdownKit, CountdownTesting and
/// CountdownCombine that makes a `Lock` is named in its table, and no other lock type is used there (so
/// that the debug builds' order check sees every acquisition).
@Suite struct LocksArticleTests {
  static let sources = packageDirectory().appendingPathComponent("Sources")

  @Test func everyLockIsListedAndIsALock() throws {
    let article = try String(
      contentsOf: Self.sources.appendingPathComponent("CountdownKit/CountdownKit.docc/Articles/Locks.md"),
      encoding: .utf8)
    let made = try Regex(#"\bLock\s*(?:<(?:[^<>\n]|<[^<>\n]*>)*>)?\s*\("#)
    let other = try Regex(
      #"\b(?:Mutex\s*[<(]|NSLock\b|NSRecursiveLock\b|pthread_mutex|os_unfair_lock|OSAllocatedUnfairLock)"#)
    var files: [String] = []
    for module in ["CountdownKit", "CountdownTesting", "CountdownCombine"] {
      let folder = Self.sources.appendingPathComponent(module)
      let names = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
      for name in names where name.hasSuffix(".swift") && name != "Lock.swift" {
        let path = "\(module)/\(name)"
        let code = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
          .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
          .joined(separator: "\n")
        #expect(!code.contains(other), "\(path) uses a lock that is not `Lock`")
        guard code.contains(made) else { continue }
        files.append(path)
        #expect(article.contains(path), "\(path) makes a lock that the article Locks does not list")
      }
    }
    #expect(files.count >= 11, "the sources were read: \(files)")
  }
}
