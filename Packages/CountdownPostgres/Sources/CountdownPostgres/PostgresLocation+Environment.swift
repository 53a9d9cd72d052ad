import Foundation

extension PostgresLocation {
  /// Connection settings as given (by a URL, or by the environment), before defaults.
  struct Settings {
    var host: String?
    var port: Int?
    var user: String?
    var password: String?
    var database: String?
    var sslMode: TLSMode?
    var sslRootCert: String?
    var connectTimeout: Int?

    /// Sets the libpq parameter `name` (a URL query item, or an environment variable's parameter).
    mutating func set(_ name: String, to value: String, from source: String) throws(PostgresDeadlineError) {
      func bad(_ problem: String) -> PostgresDeadlineError {
        PostgresLocation.badURL("\(problem), in \(source)")
      }
      switch name {
      case "sslmode":
        guard let mode = TLSMode(rawValue: value) else {
          throw bad("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        sslMode = mode
      case "sslrootcert":
        sslRootCert = value.isEmpty ? nil : value
      case "connect_timeout":
        guard let seconds = PostgresLocation.digits(value), (1...3_600).contains(seconds) else {
          throw bad("connect_timeout must be whole seconds from 1 to 3600")
        }
        connectTimeout = seconds
      case "host":
        guard !value.contains(",") else { throw bad("a list of hosts is not supported; give one host") }
        host = value.isEmpty ? nil : value
      case "port":
        guard let port = PostgresLocation.digits(value), (1...65_535).contains(port) else {
          throw bad("port must be a number from 1 to 65535")
        }
        self.port = port
      case "user":
        user = value.isEmpty ? nil : value
      case "password":
        password = value
      case "dbname":
        database = value.isEmpty ? nil : value
      default:
        throw bad(
          "unknown parameter \"\(name)\"; known: sslmode, sslrootcert, connect_timeout, host, port, user, password, dbname"
        )
      }
    }

    /// What is not set here, taken from `other`.
    func filled(from other: Settings) -> Settings {
      Settings(
        host: host ?? other.host, port: port ?? other.port, user: user ?? other.user,
        password: password ?? other.password, database: database ?? other.database, sslMode: sslMode ?? other.sslMode,
        sslRootCert: sslRootCert ?? other.sslRootCert, connectTimeout: connectTimeout ?? other.connectTimeout)
    }
  }

  /// The environment variables libpq reads, and the parameter each sets.
  static let environmentVariables: [(variable: String, parameter: String)] = [
    ("PGHOST", "host"), ("PGPORT", "port"), ("PGUSER", "user"), ("PGPASSWORD", "password"), ("PGDATABASE", "dbname"),
    ("PGSSLMODE", "sslmode"), ("PGSSLROOTCERT", "sslrootcert"), ("PGCONNECT_TIMEOUT", "connect_timeout"),
  ]

  /// The settings `environment` gives (empty variables count as unset, as in libpq).
  static func settings(from environment: [String: String]) throws(PostgresDeadlineError) -> Settings {
    var settings = Settings()
    for (variable, parameter) in environmentVariables {
      guard let value = environment[variable], !value.isEmpty else { continue }
      try settings.set(parameter, to: value, from: "$\(variable)")
    }
    return settings
  }

  /// `given`, completed from `environment`, libpq's defaults, the password file and the root certificate.
  init(given: Settings, environment: [String: String]) throws(PostgresDeadlineError) {
    let settings = given.filled(from: try Self.settings(from: environment))
    let home = Self.homeDirectory(environment)
    host = settings.host ?? "localhost"
    port = settings.port ?? 5_432
    username = settings.user ?? Self.systemUserName() ?? "postgres"
    database = settings.database ?? username
    tls = host.hasPrefix("/") ? .disable : settings.sslMode ?? .prefer
    connectTimeout = .seconds(settings.connectTimeout ?? 10)
    switch settings.sslRootCert {
    case "system"?:
      rootCertificates = .system
    case let path?:
      rootCertificates = .file(Self.expandingHome(path, home))
    case nil:
      let path = home.map { "\($0)/.postgresql/root.crt" }
      rootCertificates = path.flatMap { FileManager.default.fileExists(atPath: $0) ? .file($0) : nil }
    }
    if tls == .verifyCA || tls == .verifyFull, rootCertificates == nil {
      throw PostgresDeadlineError(
        .badURL,
        "sslmode=\(tls.rawValue) needs a root certificate, and \(home.map { "\($0)/.postgresql/root.crt" } ?? "~/.postgresql/root.crt") "
          + "does not exist. Give one with sslrootcert=/path/to/root.crt (or PGSSLROOTCERT), use the system's "
          + "trusted roots with sslrootcert=system, or choose an sslmode that does not check the certificate.")
    }
    if let password = settings.password {
      self.password = password
    } else {
      let file = environment["PGPASSFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? home.map { "\($0)/.pgpass" }
      password = nil
      if let file { password = readPassword(from: file) }
    }
  }

  /// The user's home directory: `$HOME`, else the user database's.
  static func homeDirectory(_ environment: [String: String]) -> String? {
    if let home = environment["HOME"], !home.isEmpty { return home }
    let path = FileManager.default.homeDirectoryForCurrentUser.path
    return path.isEmpty ? nil : path
  }

  /// The operating system's name for the user running the program (libpq's default user).
  static func systemUserName() -> String? {
    let name = NSUserName()
    return name.isEmpty ? nil : name
  }

  /// `path` with a leading `~/` replaced by the home directory.
  static func expandingHome(_ path: String, _ home: String?) -> String {
    guard path.hasPrefix("~/"), let home else { return path }
    return home + path.dropFirst()
  }
}
