/// What a child process runs: a program, its arguments, its environment and its working directory.
///
/// Arguments reach the program as they are, without a shell;
/// ``shell(_:arguments:name:environment:workingDirectory:)`` asks for one.
///
/// ```swift
/// let speak = ChildCommand("espeak-ng", arguments: ["-v", "en", "Time is up"])
/// let hook = ChildCommand.shell("notify-send \"$COUNTDOWN_TITLE\"", environment: .inherited().setting(["COUNTDOWN_TITLE": "Tea"]))
/// ```
public struct ChildCommand: Sendable, Hashable {
  /// The program: a path (with a `/`), or a name looked up in the `PATH` of ``environment``.
  public var executable: String
  /// The arguments after the program's name.
  public var arguments: [String]
  /// The child's whole environment.
  public var environment: ChildEnvironment
  /// The child's working directory; `nil` keeps the parent's.
  public var workingDirectory: String?

  /// A command that runs `executable` with `arguments`, without a shell.
  public init(
    _ executable: String, arguments: [String] = [], environment: ChildEnvironment = .inherited(),
    workingDirectory: String? = nil
  ) {
    self.executable = executable
    self.arguments = arguments
    self.environment = environment
    self.workingDirectory = workingDirectory
  }

  /// A command that runs `script` with `/bin/sh -c`; `arguments` become `$1`, `$2`, … (`$0` is
  /// `name`).
  public static func shell(
    _ script: String, arguments: [String] = [], name: String = "sh", environment: ChildEnvironment = .inherited(),
    workingDirectory: String? = nil
  ) -> ChildCommand {
    ChildCommand(
      "/bin/sh", arguments: ["-c", script, name] + arguments, environment: environment,
      workingDirectory: workingDirectory)
  }

  /// The path of the program to start: ``executable`` itself when it names a path, else the first
  /// executable file of that name in the `PATH` of ``environment`` (`/usr/local/bin:/usr/bin:/bin`
  /// without one).
  ///
  /// - Throws: ``ChildProcessError/notFound(_:)`` when no such file is found.
  public func resolvedExecutable() throws(ChildProcessError) -> String {
    guard !executable.isEmpty else { throw .notFound(executable) }
    if executable.contains("/") { return executable }
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
      let candidate = directory.hasSuffix("/") ? directory + executable : directory + "/" + executable
      if isExecutableFile(String(candidate)) { return String(candidate) }
    }
    throw .notFound(executable)
  }
}
