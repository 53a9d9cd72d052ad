import Foundation

/// Home directories made for one test (with a password file, a root certificate…); the test deletes
/// them with ``removeAll()`` (in a `defer`, which also keeps this alive to the end of the test).
final class TemporaryHomes {
  private var paths: [String] = []

  /// A new home directory with `files` (relative path → contents and mode) written into it.
  func make(_ files: [String: (text: String, mode: Int)] = [:]) throws -> String {
    let home = FileManager.default.temporaryDirectory.appending(path: "countdown-home-\(UUID().uuidString)").path
    paths.append(home)
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    for (path, file) in files {
      let url = URL(fileURLWithPath: home).appending(path: path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(file.text.utf8).write(to: url)
      try FileManager.default.setAttributes([.posixPermissions: file.mode], ofItemAtPath: url.path)
    }
    return home
  }

  /// Deletes every home made.
  func removeAll() {
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
    paths.removeAll()
  }
}
