import GRDB

extension OrderStore {
  /// `error`, met while trying to `doing` ("open", "read", "change") the database at `path`, as a
  /// ``Failure`` that says what happened and what to do.
  static func failure(_ error: any Error, path: String, doing: String) -> Failure {
    if let failure = error as? Failure { return failure }
    guard let error = error as? DatabaseError else {
      return Failure(description: "Cannot \(doing) \(path): \(TerminalText.sanitized("\(error)"))")
    }
    let detail = TerminalText.sanitized(error.message ?? "\(error.resultCode)")
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      return Failure(description: "\(path) is not an SQLite database (\(detail)); it was left untouched.")
    case .SQLITE_READONLY:
      return Failure(
        description: """
          Cannot \(doing) \(path): the database is read-only. Check that you may write to the file and \
          to its directory (SQLite writes a journal next to it), or pass another file with --db.
          """)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return Failure(
        description: """
          Cannot \(doing) \(path): another process holds a lock on it and kept it past the wait. \
          Try again when that process has finished writing.
          """)
    case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
      return Failure(
        description: """
          Cannot \(doing) \(path): the file cannot be opened (\(detail)). Check the path, that you may \
          read the file (and, for a new one, write to its directory), or pass another file with --db.
          """)
    case .SQLITE_FULL:
      return Failure(description: "Cannot \(doing) \(path): the disk is full.")
    default:
      return Failure(description: "Cannot \(doing) \(path): \(detail)")
    }
  }
}
