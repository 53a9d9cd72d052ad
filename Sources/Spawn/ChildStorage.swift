import Foundation
import SpawnShims
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a child's waiter thread, its reader thread and its `ChildProcess` share: how it ended, what it
/// wrote, who waits for the end. The last of the three to let go of it closes its descriptors.
final class ChildStorage: Sendable {
  private struct State {
    var termination: Termination?
    var readerDone = false
    var output = Data()
    var errors = Data()
    var waiters: [@Sendable (Termination) -> Void] = []
    var timedOut = false
    /// The parent's end of a piped standard input, until closed.
    var input: Int32?

    mutating func takeWaiters() -> [@Sendable (Termination) -> Void] {
      defer { waiters = [] }
      return waiters
    }
  }

  private let state: Mutex<State>
  /// A pipe whose read end wakes the reader when the child has ended (nil without a reader).
  let wake: (read: Int32, write: Int32)?
  private let onOutput: (@Sendable (ChildProcess.Stream, Data) -> Void)?

  init(
    input: Int32?, wake: (read: Int32, write: Int32)?, onOutput: (@Sendable (ChildProcess.Stream, Data) -> Void)?
  ) {
    state = Mutex(State(input: input))
    self.wake = wake
    self.onOutput = onOutput
  }

  deinit {
    if let wake {
      close(wake.read)
      close(wake.write)
    }
    state.withLock { state in
      if let input = state.input { close(input) }
    }
  }

  var termination: Termination? { state.withLock { $0.termination } }

  var timedOut: Bool { state.withLock { $0.timedOut } }

  func collected(_ stream: ChildProcess.Stream) -> Data {
    state.withLock { stream == .output ? $0.output : $0.errors }
  }

  /// The waiter thread reaped the child.
  func exited(status: Int32) {
    let termination = Termination(waitStatus: status)
    let waiters = state.withLock { state in
      state.termination = termination
      return state.readerDone ? state.takeWaiters() : []
    }
    if let wake { writeByte(to: wake.write) }
    for waiter in waiters { waiter(termination) }
  }

  /// The reader thread read everything it will read (or there is no reader).
  func readerFinished() {
    let (termination, waiters) = state.withLock { state in
      state.readerDone = true
      return state.termination.map { ($0, state.takeWaiters()) } ?? (nil, [])
    }
    if let termination {
      for waiter in waiters { waiter(termination) }
    }
  }

  /// Calls `waiter` with the termination once the child has ended and its output has been read (at
  /// once if it has).
  func whenDone(_ waiter: @escaping @Sendable (Termination) -> Void) {
    let done: Termination? = state.withLock { state in
      if let termination = state.termination, state.readerDone { return termination }
      state.waiters.append(waiter)
      return nil
    }
    if let done { waiter(done) }
  }

  /// A piece of a captured stream arrived.
  func received(_ data: Data, from stream: ChildProcess.Stream) {
    state.withLock { state in
      if stream == .output { state.output.append(data) } else { state.errors.append(data) }
    }
    onOutput?(stream, data)
  }

  func requestTermination(timedOut: Bool) {
    state.withLock { $0.timedOut = $0.timedOut || timedOut }
  }

  func write(_ bytes: [UInt8]) throws(ChildProcessError) {
    let failure: Int32? = state.withLock { state in
      guard let input = state.input else {
        preconditionFailure("ChildProcess.write: the child's input is not a pipe, or it was closed")
      }
      return bytes.withUnsafeBytes { spawn_send(input, $0.baseAddress, $0.count) } == 0 ? nil : errno
    }
    if let failure { throw .system(what: "writing to the child's standard input", errno: failure) }
  }

  func closeInput() {
    state.withLock { state in
      if let input = state.input { close(input) }
      state.input = nil
    }
  }
}
