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

/// Where a lock stands in the one order in which two locks may be held: a thread that holds a lock
/// takes only locks of a higher level. The DocC article "Locks" lists every lock of the package and
/// its level.
@usableFromInline
package enum LockLevel: Int, Sendable, Comparable {
  /// An engine's state (`CountdownEngine.state`): the core, the timeline, the boards' rows. Taken
  /// first.
  case engine = 0
  /// What an engine posts under its lock for after it: its `Mailbox` (main-actor work) and its
  /// `Outbox` (streams). Never one inside the other.
  case posting = 1
  /// A lock under which no other lock is taken: a slot's binding, a board's finish events, a manual
  /// clock, a subscription's state.
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

    /// Whether a thread that holds `held` may take a lock at `level`: it holds nothing at `level` or
    /// above.
    package static func allows(_ level: LockLevel, holding held: UInt) -> Bool {
      held >> UInt(level.rawValue) == 0
    }

    @usableFromInline
    static func acquire(_ level: LockLevel) {
      let held = held
      precondition(
        allows(level, holding: held),
        "Lock order violated: taking a \(level) lock while holding \(LockLevel.levels(in: held)); see the DocC article Locks"
      )
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: held | 1 << UInt(level.rawValue)))
    }

    @usableFromInline
    static func release(_ level: LockLevel) {
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: held & ~(1 << UInt(level.rawValue))))
    }
  }

  extension LockLevel {
    /// The levels whose bits are set in `held`.
    static func levels(in held: UInt) -> [LockLevel] {
      [LockLevel.engine, .posting, .leaf].filter { held & 1 << UInt($0.rawValue) != 0 }
    }
  }
#endif
