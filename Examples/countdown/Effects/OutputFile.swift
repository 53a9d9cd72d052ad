import Foundation

/// `--outfile`: a file that always holds the value shown, replaced whole at each change (written
/// next to it, then renamed over it), so that a reader never sees half a value.
struct OutputFile: Sendable {
  let url: URL

  init(path: String) {
    url = URL(fileURLWithPath: path)
  }

  /// Checks that the file's directory exists and can be written, before the countdown starts.
  func validate() throws(OutputFileError) {
    let directory = url.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { throw OutputFileError(description: "--outfile: the directory \(shown(directory.path)) does not exist.") }
    guard FileManager.default.isWritableFile(atPath: directory.path) else {
      throw OutputFileError(description: "--outfile: cannot write to the directory \(shown(directory.path)).")
    }
  }

  /// Replaces the file's content with `value` and a newline; failures are ignored (a full disk must
  /// not stop the countdown).
  func write(_ value: String) {
    let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).\(getpid()).tmp")
    do {
      try Data((value + "\n").utf8).write(to: temporary)
      guard rename(temporary.path, url.path) == 0 else {
        try? FileManager.default.removeItem(at: temporary)
        return
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
    }
  }

  private func shown(_ path: String) -> String { "'\(TerminalText.sanitized(path))'" }
}

/// Why `--outfile` cannot be used.
struct OutputFileError: Error, CustomStringConvertible {
  var description: String
}
