import Foundation

extension PostgresLocation {
  /// The password for this location in the password file at `path` (libpq's `.pgpass`), or nil.
  ///
  /// As libpq: each line is `hostname:port:database:username:password`; `*` in one of the first four
  /// fields matches anything; `\:` and `\\` stand for `:` and `\`; lines starting with `#` are comments;
  /// the first line that matches wins. A Unix socket connection also matches the host name `localhost`.
  /// A file that others can read or write (group or world permissions), or that is not a plain file,
  /// is ignored with a warning in ``warnings``, since anyone could have read or planted it.
  mutating func readPassword(from path: String) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
    guard attributes[.type] as? FileAttributeType == .typeRegular else {
      warnings.append("The password file \(path) is not a plain file; it was ignored.")
      return nil
    }
    let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
    guard permissions & 0o077 == 0 else {
      warnings.append(
        "The password file \(path) has group or world access (mode \(String(permissions, radix: 8))); it was "
          + "ignored. Permissions should be u=rw (0600) or less: chmod 600 \(path)")
      return nil
    }
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return Self.password(in: String(decoding: data, as: UTF8.self), for: self)
  }

  /// The password of the first line of `text` (a password file) that matches `location`.
  static func password(in text: String, for location: PostgresLocation) -> String? {
    let hosts = location.host.hasPrefix("/") ? [location.host, "localhost"] : [location.host]
    for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      guard !line.hasPrefix("#"), let fields = passwordFileFields(line) else { continue }
      func matches(_ field: String, _ values: [String]) -> Bool { field == "*" || values.contains(field) }
      if matches(fields[0], hosts), matches(fields[1], [String(location.port)]),
        matches(fields[2], [location.database]),
        matches(fields[3], [location.username])
      {
        return fields[4]
      }
    }
    return nil
  }

  /// The `:`-separated fields of a password file line, with `\:` and `\\` unescaped (the password ends
  /// at the next unescaped `:`, as libpq reads it); nil for a line of fewer than five fields.
  private static func passwordFileFields(_ line: Substring) -> [String]? {
    var fields: [String] = []
    var current = ""
    var escaped = false
    for character in line {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ":" {
        fields.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    fields.append(current)
    return fields.count >= 5 ? Array(fields.prefix(5)) : nil
  }
}
