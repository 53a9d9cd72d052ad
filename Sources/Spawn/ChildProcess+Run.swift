public import Foundation

/// How a command run by ``ChildProcess/run(_:output:errors:timeout:grace:clock:onOutput:)`` ended, and what it
/// wrote.
public struct ChildProcessResult: Sendable, Hashable {
  /// How the child ended.
  public var termination: Termination
  /// Whether the timeout passed and ended the child's group.
  public var timedOut: Bool
  /// Its captured standard output (empty unless captured).
  public var output: Data
  /// Its captured standard error (empty unless captured).
  public var errors: Data

  /// Standard output as text (invalid UTF-8 repaired).
  public var outputText: String { String(decoding: output, as: UTF8.self) }
  /// Standard error as text (invalid UTF-8 repaired).
  public var errorText: String { String(decoding: errors, as: UTF8.self) }
}

extension ChildProcess {
  /// Runs `command` to its end with standard input from `/dev/null`.
  ///
  /// `onOutput` is called with each piece of a captured stream as it arrives (see
  /// ``ChildProcess/init(_:input:output:errors:endsWithParent:onOutput:)``).
  ///
  /// When `timeout` passes on `clock`, or the calling task is cancelled, the child's whole process group
  /// gets SIGTERM, then SIGKILL after `grace`; the call returns once the child has ended either way (a
  /// timeout shows in ``ChildProcessResult/timedOut``, and the termination says which signal ended it).
  ///
  /// - Throws: ``ChildProcessError`` when the command cannot be started.
  public static func run<C: Clock>(
    _ command: ChildCommand, output: Output = .capture, errors: Output = .capture, timeout: Duration? = nil,
    grace: Duration = .seconds(2), clock: C, onOutput: (@Sendable (Stream, Data) -> Void)? = nil
  ) async throws(ChildProcessError) -> ChildProcessResult where C.Duration == Duration {
    let child = try ChildProcess(command, output: output, errors: errors, onOutput: onOutput)
    let timer = timeout.map { timeout in
      Task {
        try await clock.sleep(for: timeout)
        child.terminate(grace: grace, clock: clock, timedOut: true)
      }
    }
    let termination = await withTaskCancellationHandler {
      await child.wait()
    } onCancel: {
      child.terminate(grace: grace, clock: clock, timedOut: false)
    }
    timer?.cancel()
    return ChildProcessResult(
      termination: termination, timedOut: child.timedOut, output: child.output, errors: child.errors)
  }

  /// Runs `command` to its end with standard input from `/dev/null`; `timeout` and `grace` are
  /// measured on `ContinuousClock`.
  ///
  /// When `timeout` passes, or the calling task is cancelled, the child's whole process group gets
  /// SIGTERM, then SIGKILL after `grace`; the call returns once the child has ended either way.
  ///
  /// - Throws: ``ChildProcessError`` when the command cannot be started.
  public static func run(
    _ command: ChildCommand, output: Output = .capture, errors: Output = .capture, timeout: Duration? = nil,
    grace: Duration = .seconds(2), onOutput: (@Sendable (Stream, Data) -> Void)? = nil
  ) async throws(ChildProcessError) -> ChildProcessResult {
    try await run(
      command, output: output, errors: errors, timeout: timeout, grace: grace, clock: ContinuousClock(),
      onOutput: onOutput)
  }
}
