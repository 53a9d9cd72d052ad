import Foundation
import Spawn
import SpawnShims
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What tests need to look at processes from outside.
enum ProcessProbes {
  /// The built `name` executable next to the test bundle.
  static func executable(_ name: String) -> String {
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    for case let directory? in candidates {
      let path = directory.appending(path: name).path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    preconditionFailure("\(name) was not built next to the tests: \(candidates)")
  }

  /// The non-negative decimal number `text` spells in ASCII digits, or nil.
  static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.utf8.count < 19, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return text.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  #if os(Linux)
    /// Waits (at most `timeout` seconds) until process `pid` has ended, whoever its parent is; returns
    /// whether it did. A process that is already gone counts as ended.
    ///
    /// Blocks the calling thread on the process's pidfd: an event, not a timer.
    static func waitForEnd(of pid: Int32, timeout: Double = 10) -> Bool {
      let descriptor = spawn_pidfd_open(pid)
      guard descriptor >= 0 else { return errno == ESRCH }
      defer { close(descriptor) }
      var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      return poll(&polled, 1, Int32(timeout * 1_000)) == 1
    }
  #endif
}

/// The lines a child writes, as they arrive: for waiting until it is ready.
final class OutputLines: Sendable {
  private let stream: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation
  private let pending = Mutex(Data())

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  /// Give this to ``ChildProcess/init(_:input:output:errors:endsWithParent:onOutput:)``.
  var handler: @Sendable (ChildProcess.Stream, Data) -> Void {
    { [self] _, data in
      let lines = pending.withLock { pending in
        pending.append(data)
        var lines: [String] = []
        while let newline = pending.firstIndex(of: 0x0A) {
          lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...newline)
        }
        return lines
      }
      for line in lines { continuation.yield(line) }
    }
  }

  /// The next line written.
  func next() async -> String? {
    var iterator = stream.makeAsyncIterator()
    return await iterator.next()
  }
}
