public import Foundation
import SpawnShims
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running child process in a process group of its own, reaped by a thread of its own.
///
/// ```swift
/// let child = try ChildProcess(.shell("make test"), output: .capture)
/// let termination = await child.wait()
/// print(termination, String(decoding: child.output, as: UTF8.self))
/// ```
///
/// The child starts with every signal at its default action and an empty signal mask (whatever the
/// parent ignores or blocks), with no descriptor of the parent's but the three it is given, and as the
/// leader of a new process group, so that ``terminate(grace:clock:)`` ends it together with every
/// process it started. A thread waits for its exit, so it never stays a zombie; what it writes to a
/// captured stream is read by a second thread as it arrives. No dispatch source, run loop or signal
/// handler of the parent's is involved.
///
/// On Linux, a child started with `endsWithParent` (the default) gets SIGKILL if this process ends
/// before it, however this process ends (`PR_SET_PDEATHSIG`); the processes the child started itself
/// are not covered. Dropping a `ChildProcess` whose child still runs kills the child's group.
///
/// ``run(_:output:errors:timeout:grace:clock:onOutput:)`` runs a command to its end, with a timeout and Swift
/// concurrency's cancellation.
public final class ChildProcess: Sendable {
  /// Where the child's standard input comes from.
  public enum Input: Sendable, Hashable {
    /// `/dev/null`: the child reads end-of-file at once.
    case null
    /// The parent's standard input.
    case inherit
    /// A pipe the parent writes with ``write(_:)`` and ends with ``closeInput()``.
    case pipe
  }

  /// Where one of the child's output streams goes.
  public enum Output: Sendable, Hashable {
    /// `/dev/null`.
    case discard
    /// The parent's own stream (standard output or standard error).
    case inherit
    /// Collected in ``output`` or ``errors``, and handed to `onOutput` as it arrives.
    case capture
    /// Standard error only: the same place as standard output, interleaved as written.
    case sameAsOutput
    /// Appended to the file at this path (created if need be, with mode 0644).
    case appending(toFile: String)
  }

  /// One of the child's output streams.
  public enum Stream: Sendable, Hashable {
    /// Standard output (with standard error when that is ``Output/sameAsOutput``).
    case output
    /// Standard error.
    case errors
  }

  /// The child's process ID, which is also its process group's ID.
  public let pid: Int32
  let storage: ChildStorage

  /// Starts `command`.
  ///
  /// - Parameters:
  ///   - input: Where the child's standard input comes from.
  ///   - output: Where its standard output goes.
  ///   - errors: Where its standard error goes.
  ///   - endsWithParent: (Linux) whether the child is killed when this process ends first.
  ///   - onOutput: Called with each piece of a captured stream as it arrives, on the thread that reads
  ///     it (not on the Swift concurrency pool: it runs at once however busy the pool is).
  /// - Throws: ``ChildProcessError`` when the program cannot be found or started.
  public init(
    _ command: ChildCommand, input: Input = .null, output: Output = .inherit, errors: Output = .inherit,
    endsWithParent: Bool = true, onOutput: (@Sendable (Stream, Data) -> Void)? = nil
  ) throws(ChildProcessError) {
    precondition(output != .sameAsOutput, "ChildProcess: .sameAsOutput is for standard error only")
    let program = try command.resolvedExecutable()
    let arguments = [program] + command.arguments
    let environment = command.environment.values.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
    for text in arguments + environment + [command.workingDirectory ?? ""] where text.utf8.contains(0) {
      throw .embeddedNUL(text)
    }

    let plumbing = try Plumbing(input: input, output: output, errors: errors)
    let storage = ChildStorage(input: plumbing.parentInput, wake: plumbing.wake, onOutput: onOutput)
    let started = StartSignal()
    let descriptors = spawn_descriptors(
      standardInput: plumbing.childInput, standardOutput: plumbing.childOutput, standardError: plumbing.childErrors)
    let waiter = Thread {
      var failure: Int32 = 0
      var stage: Int32 = 0
      let pid = withCStrings(arguments) { argv in
        withCStrings(environment) { envp in
          spawn_child(
            program, argv, envp, command.workingDirectory, descriptors, endsWithParent ? 1 : 0, &failure, &stage)
        }
      }
      started.report(pid: pid, failure: failure, stage: stage)
      guard pid > 0 else { return }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      storage.exited(status: status)
    }
    waiter.name = "ChildProcess waiter"
    waiter.stackSize = 1 << 18
    waiter.start()
    let (pid, failure, stage) = started.wait()
    plumbing.closeChildSides()
    guard pid > 0 else {
      plumbing.closeCapturedSides()
      throw .system(what: Self.stageName(stage, program: program), errno: failure)
    }
    self.pid = pid
    self.storage = storage
    if !plumbing.captured.isEmpty {
      let reader = Thread { OutputReader(streams: plumbing.captured, wake: plumbing.wake).run(into: storage) }
      reader.name = "ChildProcess reader"
      reader.stackSize = 1 << 18
      reader.start()
    } else {
      storage.readerFinished()
    }
  }

  deinit {
    if storage.termination == nil { kill(-pid, SIGKILL) }
    storage.closeInput()
  }

  /// How the child ended, once it has; `nil` while it runs.
  public var termination: Termination? { storage.termination }

  /// Whether the child still runs (its group may outlive it).
  public var isRunning: Bool { storage.termination == nil }

  /// Whether ``terminate(grace:clock:)`` was called because a timeout passed (by ``run(_:output:errors:timeout:grace:clock:onOutput:)``).
  public var timedOut: Bool { storage.timedOut }

  /// What the child wrote to a captured standard output so far.
  public var output: Data { storage.collected(.output) }

  /// What the child wrote to a captured standard error so far.
  public var errors: Data { storage.collected(.errors) }

  /// Waits until the child has ended and its captured output has been read, and returns how it ended.
  ///
  /// Output written after the child ended, by processes it left running, is not waited for.
  public func wait() async -> Termination {
    await withCheckedContinuation { continuation in storage.whenDone { continuation.resume(returning: $0) } }
  }

  /// Sends `signal` to the child alone.
  public func send(_ signal: Int32) {
    if storage.termination == nil { kill(pid, signal) }
  }

  /// Sends `signal` to the child's whole process group: the child and every process it started that
  /// did not leave the group.
  public func sendToGroup(_ signal: Int32) {
    kill(-pid, signal)
  }

  /// Ends the child's process group: SIGTERM (and SIGCONT, for stopped members) now, then SIGKILL to
  /// whatever of the group is left after `grace` on `clock`.
  public func terminate<C: Clock>(grace: Duration = .seconds(2), clock: C) where C.Duration == Duration {
    terminate(grace: grace, clock: clock, timedOut: false)
  }

  /// Ends the child's process group: SIGTERM (and SIGCONT, for stopped members) now, then SIGKILL to
  /// whatever of the group is left after `grace`.
  public func terminate(grace: Duration = .seconds(2)) {
    terminate(grace: grace, clock: ContinuousClock(), timedOut: false)
  }

  func terminate<C: Clock>(grace: Duration, clock: C, timedOut: Bool) where C.Duration == Duration {
    storage.requestTermination(timedOut: timedOut)
    let group = pid
    guard kill(-group, SIGTERM) == 0 else { return }
    kill(-group, SIGCONT)
    Task.detached {
      try? await clock.sleep(for: grace)
      kill(-group, SIGKILL)
    }
  }

  /// Writes `bytes` to the child's standard input (``Input/pipe``).
  ///
  /// - Throws: ``ChildProcessError/system(what:errno:)`` (`EPIPE`) when the child no longer reads it.
  /// - Precondition: the child was started with ``Input/pipe`` and ``closeInput()`` was not called.
  public func write(_ bytes: some Sequence<UInt8>) throws(ChildProcessError) {
    try storage.write(Array(bytes))
  }

  /// Closes the child's standard input (``Input/pipe``): it reads end-of-file.
  public func closeInput() {
    storage.closeInput()
  }

  private static func stageName(_ stage: Int32, program: String) -> String {
    switch stage {
    case 2: "changing to the working directory of '\(program)'"
    case 3: "setting up the standard streams of '\(program)'"
    case 4: "resetting the signals of '\(program)'"
    case 5: "starting '\(program)'"
    default: "starting a process for '\(program)'"
    }
  }
}

/// How a child process ended.
public enum Termination: Sendable, Hashable, CustomStringConvertible {
  /// It exited with this status.
  case exited(Int32)
  /// A signal ended it.
  case signalled(Int32)

  /// Whether it exited with status 0.
  public var isSuccess: Bool { self == .exited(0) }

  /// "exit status 3", "signal 15 (Terminated)".
  public var description: String {
    switch self {
    case .exited(let status): "exit status \(status)"
    case .signalled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
    }
  }

  init(waitStatus status: Int32) {
    let signal = spawn_termination_signal(status)
    self = signal >= 0 ? .signalled(signal) : .exited(spawn_exit_status(status))
  }
}

/// The child's pid (or the failure) handed from the waiter thread, which starts the child, to the
/// thread that asked for it.
private final class StartSignal: Sendable {
  private let condition = NSCondition()
  private let result = Mutex<(pid: Int32, failure: Int32, stage: Int32)?>(nil)

  func report(pid: Int32, failure: Int32, stage: Int32) {
    condition.lock()
    result.withLock { $0 = (pid, failure, stage) }
    condition.signal()
    condition.unlock()
  }

  func wait() -> (pid: Int32, failure: Int32, stage: Int32) {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result = result.withLock({ $0 }) { return result }
      condition.wait()
    }
  }
}
