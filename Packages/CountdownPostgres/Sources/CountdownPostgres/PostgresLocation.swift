public import Foundation
public import Logging

/// Where a PostgreSQL database is and how to reach it, read as libpq (`psql`) reads it: a
/// `postgres://user:password@host:port/database?sslmode=…` URL, whose missing parts come from the
/// environment (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT`,
/// `PGCONNECT_TIMEOUT`, `PGPASSFILE`), then from libpq's defaults; and a password, when none is given,
/// from the password file (`~/.pgpass`), so that no password has to appear on a command line, where
/// every local user can read it with `ps`.
///
/// Defaults as in libpq: host `localhost` (libpq's default is its Unix socket; give `host=/path` or
/// `PGHOST=/path` for a socket directory), port 5432, the operating system's user name, a database named
/// after the user, `sslmode=prefer`, and the root certificate `~/.postgresql/root.crt` when it exists.
///
/// URL parameters: `sslmode`, `sslrootcert`, `connect_timeout`, `host`, `port`, `user`, `password` and
/// `dbname` (as libpq's URIs take them; each overrides its part of the URL).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
  /// How the connection is encrypted, and how the server's certificate is checked (libpq's `sslmode`).
  public enum TLSMode: String, Sendable, Hashable, CaseIterable {
    /// No encryption.
    case disable
    /// Without encryption first; encrypted if the server refuses that.
    case allow
    /// Encrypted if the server offers it, else not (the default).
    case prefer
    /// Encrypted; the certificate is checked against the root certificate if there is one (as libpq
    /// does, for compatibility with older versions), else not at all.
    case require
    /// Encrypted, with the certificate checked against the root certificate (which must exist).
    case verifyCA = "verify-ca"
    /// Encrypted, with the certificate checked against the root certificate and the host name (or IP
    /// address) checked against the certificate.
    case verifyFull = "verify-full"
  }

  /// The root certificates the server's certificate is checked against.
  public enum RootCertificates: Sendable, Hashable {
    /// The certificates in this PEM file.
    case file(String)
    /// The operating system's trusted roots (`sslrootcert=system`).
    case system
  }

  /// The server's host name or address, or the directory of its Unix socket (starting with `/`).
  public var host: String
  /// The server's TCP port (also the number in the socket's name).
  public var port: Int
  /// The user to connect as.
  public var username: String
  /// The user's password, if the server asks for one.
  public var password: String?
  /// The database to connect to.
  public var database: String
  /// How the connection is encrypted.
  public var tls: TLSMode
  /// What the server's certificate is checked against (nil: no root certificate was given or found).
  public var rootCertificates: RootCertificates?
  /// How long connecting may take before it counts as unreachable.
  public var connectTimeout: Duration
  /// What was wrong in the environment but not fatal (a password file others can read, which is
  /// ignored, as libpq ignores it), for the program to print.
  public var warnings: [String] = []

  /// Whether `text` is meant as a PostgreSQL URL (`postgres://` or `postgresql://`).
  public static func isURL(_ text: String) -> Bool {
    let lowered = text.prefix(13).lowercased()
    return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
  }

  /// Reads a URL, filling what it leaves out from `environment` (the process's by default), libpq's
  /// defaults and the password file.
  ///
  /// - Throws: ``PostgresDeadlineError`` of kind `.badURL` that says what is wrong (with the URL, an
  ///   environment variable, or a missing root certificate for `verify-ca`/`verify-full`).
  public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(PostgresDeadlineError)
  {
    guard Self.isURL(text), let components = URLComponents(string: text) else {
      throw Self.badURL("it must start with postgres:// and be a valid URL")
    }
    var given = Settings()
    given.host = components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding ?? $0 }
    if let port = components.port {
      guard (1...65_535).contains(port) else { throw Self.badURL("port \(port) is out of range") }
      given.port = port
    }
    given.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
    given.password = components.password
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    guard !path.contains("/") else { throw Self.badURL("the database name \"\(path)\" contains a slash") }
    given.database = path.isEmpty ? nil : path
    for item in components.queryItems ?? [] {
      try given.set(item.name, to: item.value ?? "", from: "the URL")
    }
    try self.init(given: given, environment: environment)
  }

  /// The URL without the password, for messages and headers.
  public var description: String {
    let shownHost =
      host.hasPrefix("/") ? host.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? host : host
    return "postgres://\(username)@\(shownHost):\(port)/\(database)"
  }

  /// A non-negative integer written in ASCII digits only, or nil.
  static func digits(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return text.utf8.reduce(0) { $0 * 10 + Int($1 - 48) }
  }

  /// The error for a URL or setting that cannot be used.
  static func badURL(_ problem: String) -> PostgresDeadlineError {
    .init(.badURL, "Not a usable PostgreSQL URL (\(problem)). Expected postgres://user@host:5432/database")
  }
}

extension Logger {
  /// A logger that drops everything: the default of this package's types (postgres-nio logs at
  /// debug and trace levels only, but a process may have bootstrapped a handler that prints those).
  public static var quiet: Logger {
    Logger(label: "CountdownPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
  }
}
