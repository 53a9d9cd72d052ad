/// Why a child process could not be started.
public enum ChildProcessError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No executable of that name was found on the `PATH`.
  case notFound(String)
  /// A name, argument, environment variable or directory holds a NUL byte, which the system cannot
  /// pass on.
  case embeddedNUL(String)
  /// The system refused: `what` failed with `errno`.
  case system(what: String, errno: Int32)

  /// What went wrong, in a sentence.
  public var description: String {
    switch self {
    case .notFound(let name):
      return "cannot run \(name.isEmpty ? "an empty program name" : "'\(name)'"): no such program on the PATH"
    case .embeddedNUL(let text):
      let shown = text.split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "\\0")
      return "cannot pass '\(shown)' to a program: it holds a NUL byte"
    case .system(let what, let code):
      return "\(what) failed: \(errorText(code))"
    }
  }
}
