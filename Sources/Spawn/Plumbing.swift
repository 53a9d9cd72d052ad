import SpawnShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The descriptors made for one child: the ends it gets as 0, 1 and 2 (closed in the parent once it
/// has started) and the ends the parent keeps. Every descriptor is close-on-exec, so that no other
/// child started meanwhile inherits it.
struct Plumbing {
  /// The descriptors the child gets; -1 keeps the parent's.
  var childInput: Int32 = -1
  var childOutput: Int32 = -1
  var childErrors: Int32 = -1
  /// The parent's end of a piped standard input.
  var parentInput: Int32?
  /// The parent's (non-blocking) read ends of captured streams.
  var captured: [(stream: ChildProcess.Stream, descriptor: Int32)] = []
  /// A pipe that wakes the reader of the captured streams when the child has ended.
  var wake: (read: Int32, write: Int32)?
  /// Every descriptor opened here, to close if the child cannot start.
  private var opened: [Int32] = []

  init(input: ChildProcess.Input, output: ChildProcess.Output, errors: ChildProcess.Output) throws(ChildProcessError) {
    do throws(ChildProcessError) {
      switch input {
      case .inherit: break
      case .null: childInput = try openDevice("/dev/null", O_RDONLY)
      case .pipe:
        var ends: [Int32] = [-1, -1]
        guard spawn_socketpair(&ends) == 0 else { throw .system(what: "socketpair", errno: errno) }
        opened += ends
        (childInput, parentInput) = (ends[0], ends[1])
      }
      childOutput = try place(output, stream: .output)
      childErrors = errors == .sameAsOutput ? childOutput : try place(errors, stream: .errors)
      if !captured.isEmpty {
        var ends: [Int32] = [-1, -1]
        guard spawn_pipe(&ends, 1) == 0 else { throw .system(what: "pipe", errno: errno) }
        opened += ends
        wake = (ends[0], ends[1])
      }
    } catch {
      for descriptor in opened { close(descriptor) }
      throw error
    }
  }

  /// The descriptor the child gets for one output stream.
  private mutating func place(_ output: ChildProcess.Output, stream: ChildProcess.Stream) throws(ChildProcessError)
    -> Int32
  {
    switch output {
    case .inherit, .sameAsOutput: return -1
    case .discard: return try openDevice("/dev/null", O_WRONLY)
    case .appending(let path): return try openDevice(path, O_WRONLY | O_CREAT | O_APPEND)
    case .capture:
      var ends: [Int32] = [-1, -1]
      guard spawn_pipe(&ends, 1) == 0 else { throw .system(what: "pipe", errno: errno) }
      opened += ends
      captured.append((stream, ends[0]))
      return ends[1]
    }
  }

  private mutating func openDevice(_ path: String, _ mode: Int32) throws(ChildProcessError) -> Int32 {
    if path.utf8.contains(0) { throw .embeddedNUL(path) }
    let descriptor = open(path, mode | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system(what: "opening \(path)", errno: errno) }
    opened.append(descriptor)
    return descriptor
  }

  /// Closes the ends the child got (once it has them, or could not start).
  func closeChildSides() {
    for descriptor in Set([childInput, childOutput, childErrors]) where descriptor >= 0 { close(descriptor) }
  }

  /// Closes the read ends of the captured streams (when the child could not start; the input and
  /// wake descriptors belong to the child's storage by then).
  func closeCapturedSides() {
    for (_, descriptor) in captured { close(descriptor) }
  }
}
