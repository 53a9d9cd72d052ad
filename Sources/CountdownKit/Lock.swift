public import Synchronization

#if COUNTDOWNKIT_TSAN_LOCKS
  public import Foundation
#endif
#if DEBUG
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif
#endif

/// The project's one lock type: a `Mutex` with its place in the one order in which locks may be held
/// (``LockLevel``), checked in debug builds, and visible to ThreadSanitizer when asked to.
///
/// On Linux, `Synchronization.Mutex` locks with atomics and futexes inside the (uninstrumented)
/// standard library, so ThreadSanitizer sees no ordering between two critical sections and reports
/// every access made under the lock as a race: a two-thread counter incremented only inside
/// `withLock` gets three reports (Swift 6.3.1). Built with `-DCOUNTDOWNKIT_TSAN_LOCKS`, each lock
/// also takes an `NSLock`, a pthread mutex that ThreadSanitizer understands, so that it reports only
/// real races:
///
/// ```
/// swift test --sanitize=thread -Xswiftc -DCOUNTDOWNKIT_TSAN_LOCKS --filter EngineStressTests
/// ```
///
/// Without the flag it is a `Mutex` (and, in debug builds, the order check).
@usableFromInline
package struct Lock<Value: ~Copyable>: ~Copyable {
  @usableFromInline let mutex: Mutex<Value>
  @usableFromInline let level: LockLevel
  #if COUNTDOWNKIT_TSAN_LOCKS
    @usableFromInline let visible = NSLock()
  #endif

  /// A lock around `value`, at `level` in the lock order.
  @inlinable
  package init(_ value: consuming sending Value, level: LockLevel = .leaf) {
    mutex = Mutex(value)
    self.level = level
  }

  /// Runs `body` with exclusive access to the value.
  ///
  /// - Precondition: (debug builds) the calling thread holds no lock at `level` or above: locks are
  ///   taken in the order of ``LockLevel`` only.
  @inlinable
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    #if DEBUG
      LockOrder.acquire(level)
      defer { LockOrder.release(level) }
    #endif
    #if COUNTDOWNKIT_TSAN_LOCKS
      visible.lock()
      defer { visible.unlock() }
    #endif
    return try mutex.withLock(body)
  }
}

extension Lock: Sendable where Value: ~Copyable {}

/// Where a lock stands in the one order in which locks may be held: the engine's lock first, then one
/// lock of another level; never two of one level, never three at once. The DocC article "Locks" lists
/// every lock of the package, its level, and every nesting.
@usableFromInline
package enum LockLevel: Int, Sendable, Comparable {
  /// An engine's state (`CountdownEngine.state`): the core, the timeline, the boards' rows. Taken
  /// first.
  case engine = 0
  /// What an engine posts under its lock for after it: its `Mailbox` (main-actor work) and its
  /// `Outbox` (streams). Taken alone or under the engine's lock; never one inside the other.
  case posting = 1
  /// A lock under which no other lock is taken, taken alone or under the engine's lock: a slot's
  /// binding, a board's finish events and changed rows, a manual clock, a subscription's state.
  case leaf = 2

  @inlinable
  package static func < (lhs: LockLevel, rhs: LockLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

#if DEBUG
  /// The debug builds' check of the lock order: each thread's held levels, as bits of a thread-local
  /// word.
  @usableFromInline
  package enum LockOrder {
    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      precondition(pthread_key_create(&key, nil) == 0, "LockOrder: no thread-local key")
      return key
    }()

    /// The levels the calling thread holds, one bit each.
    package static var held: UInt {
      UInt(bitPattern: pthread_getspecific(key))
    }

    /// Whether a thread that holds `held` may take a lock at `level`: the engine's lock when it holds
    /// nothing, another lock when it holds nothing but the engine's.
    package static func allows(_ level: LockLevel, holding held: UInt) -> Bool {
      level == .engine ? held == 0 : held & ~LockLevel.engine.bit == 0
    }

    /// Traps if the calling thread holds a lock, naming `what` it was about to do: see
    /// ``checkUnlocked(_:)``.
    @usableFromInline
    static func checkNothingHeld(_ what: StaticString) {
      let held = held
      precondition(
        held == 0, "\(what) while holding \(LockLevel.levels(in: held)); see the DocC article Locks")
    }

    @usableFromInline
    static func acquire(_ level: LockLevel) {
      let held = held
      precondition(
        allows(level, holding: held),
        "Lock order violated: taking a \(level) lock while holding \(LockLevel.levels(in: held)); see the DocC article Locks"
      )
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: held | level.bit))
    }

    @usableFromInline
    static func release(_ level: LockLevel) {
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: held & ~level.bit))
    }
  }

  extension LockLevel {
    /// The level's bit in ``LockOrder/held``.
    var bit: UInt { 1 << UInt(rawValue) }

    /// The levels whose bits are set in `held`.
    static func levels(in held: UInt) -> [LockLevel] {
      [LockLevel.engine, .posting, .leaf].filter { held & $0.bit != 0 }
    }
  }
#endif

// Continuations are resumed, yielded to and finished with no lock held, as in swift-async-algorithms: a
// state machine under a lock returns the continuations, and its storage resumes them after unlocking.
// A resumed task may run at once on the resuming thread, and a stream's termination handler runs inside
// `finish()`; either may take a lock (the engine's, to cancel a countdown). The package touches a
// continuation only through these methods; debug builds trap when the calling thread holds a `Lock`,
// and `ContinuationTests` fails on any other call.

/// Traps (debug builds) if the calling thread holds a ``Lock``: about to do `what`, which must be done
/// with no lock held.
@inlinable
package func checkUnlocked(_ what: StaticString) {
  #if DEBUG
    LockOrder.checkNothingHeld(what)
  #endif
}

extension CheckedContinuation {
  /// `resume(returning:)`, with no lock held (checked in debug builds).
  @inlinable
  package func resumeUnlocked(returning value: sending T) {
    checkUnlocked("Resuming a continuation")
    resume(returning: value)
  }

  /// `resume(with:)`, with no lock held (checked in debug builds).
  @inlinable
  package func resumeUnlocked(with result: sending Result<T, E>) {
    checkUnlocked("Resuming a continuation")
    resume(with: result)
  }

  /// `resume(throwing:)`, with no lock held (checked in debug builds).
  @inlinable
  package func resumeUnlocked(throwing error: E) {
    checkUnlocked("Resuming a continuation")
    resume(throwing: error)
  }
}

extension CheckedContinuation where T == Void {
  /// `resume()`, with no lock held (checked in debug builds).
  @inlinable
  package func resumeUnlocked() {
    checkUnlocked("Resuming a continuation")
    resume()
  }
}

extension AsyncStream.Continuation {
  /// `yield(_:)`, with no lock held (checked in debug builds).
  @inlinable
  @discardableResult
  package func yieldUnlocked(_ value: sending Element) -> YieldResult {
    checkUnlocked("Yielding to a stream")
    return yield(value)
  }

  /// `finish()`, with no lock held (checked in debug builds): the stream's termination handler runs in
  /// it.
  @inlinable
  package func finishUnlocked() {
    checkUnlocked("Finishing a stream")
    finish()
  }
}

extension AsyncStream.Continuation where Element == Void {
  /// `yield()`, with no lock held (checked in debug builds).
  @inlinable
  @discardableResult
  package func yieldUnlocked() -> YieldResult {
    checkUnlocked("Yielding to a stream")
    return yield()
  }
}
