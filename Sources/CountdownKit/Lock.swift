public import Synchronization

#if COUNTDOWNKIT_TSAN_LOCKS
  public import Foundation
#endif

/// A `Mutex` that ThreadSanitizer can see, when asked to.
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
/// Without the flag it is exactly a `Mutex`.
@usableFromInline
package struct Lock<Value: ~Copyable>: ~Copyable {
  @usableFromInline let mutex: Mutex<Value>
  #if COUNTDOWNKIT_TSAN_LOCKS
    @usableFromInline let visible = NSLock()
  #endif

  /// A lock around `value`.
  @inlinable
  package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    #if COUNTDOWNKIT_TSAN_LOCKS
      visible.lock()
      defer { visible.unlock() }
    #endif
    return try mutex.withLock(body)
  }
}

extension Lock: Sendable where Value: ~Copyable {}
