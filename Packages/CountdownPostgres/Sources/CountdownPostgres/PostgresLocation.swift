import Foundation
import Logging
import NIOCore
import NIOSSL
import Synchronization
public import PostgresNIO

/// Where a PostgreSQL database is, read from a `postgres://user:password@host:port/database` URL.
///
/// Query parameters: `sslmode` (`disable`, the default; `prefer` and `require`, which encrypt without
/// checking the certificate, as libpq does; `verify-full`, which checks it against the system's roots)
/// and `connect_timeout` (whole seconds, 10 by default). Missing parts default as in libpq: host
/// `localhost`, port 5432, user `postgres`, database named after the user.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
  /// How the connection is encrypted.
  public enum TLSMode: String, Sendable, Hashable, CaseIterable {
    /// No encryption (the default: a loopback or private network).
    case disable
    /// Encrypted if the server offers it, without checking its certificate.
    case prefer
    /// Encrypted, without checking the certificate.
    case require
    /// Encrypted, with the certificate checked against the system's roots and the host name.
    case verifyFull = "verify-full"
  }

  /// The server's host name or address.
  public var host: String
  /// The server's TCP port.
  public var port: Int
  /// The user to connect as.
  public var username: String
  /// The user's password, if the server asks for one.
  public var password: String?
  /// The database to connect to.
  public var database: String
  /// How the connection is encrypted.
  public var tls: TLSMode
  /// How long connecting may take before it counts as unreachable.
  public var connectTimeout: Duration

  /// Whether `text` is meant as a PostgreSQL URL (`postgres://` or `postgresql://`).
  public static func isURL(_ text: String) -> Bool {
    let lowered = text.prefix(13).lowercased()
    return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
  }

  /// Reads a URL; throws a ``PostgresDeadlineError`` of kind `.badURL` that says what is wrong with it.
  public init(url text: String) throws(PostgresDeadlineError) {
    func bad(_ problem: String) -> PostgresDeadlineError {
      .init(.badURL, "Not a usable PostgreSQL URL (\(problem)). Expected postgres://user:password@host:5432/database")
    }
    guard Self.isURL(text), let components = URLComponents(string: text) else {
      throw bad("it must start with postgres:// and be a valid URL")
    }
    host = components.host.map { $0.isEmpty ? "localhost" : $0 } ?? "localhost"
    if let port = components.port {
      guard (1...65_535).contains(port) else { throw bad("port \(port) is out of range") }
      self.port = port
    } else {
      port = 5_432
    }
    username = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
    password = components.password
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    guard !path.contains("/") else { throw bad("the database name \"\(path)\" contains a slash") }
    database = path.isEmpty ? username : path
    tls = .disable
    connectTimeout = .seconds(10)
    for item in components.queryItems ?? [] {
      let value = item.value ?? ""
      switch item.name {
      case "sslmode":
        guard let mode = TLSMode(rawValue: value) else {
          throw bad("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        tls = mode
      case "connect_timeout":
        guard let seconds = Self.digits(value), (1...3_600).contains(seconds) else {
          throw bad("connect_timeout must be whole seconds from 1 to 3600")
        }
        connectTimeout = .seconds(seconds)
      default:
        throw bad("unknown parameter \"\(item.name)\"; known: sslmode, connect_timeout")
      }
    }
  }

  /// The URL without the password, for messages and headers.
  public var description: String {
    "postgres://\(username)@\(host):\(port)/\(database)"
  }

  /// A non-negative integer written in ASCII digits only, or nil.
  static func digits(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return text.utf8.reduce(0) { $0 * 10 + Int($1 - 48) }
  }

  /// postgres-nio's configuration for this location.
  func configuration() throws(PostgresDeadlineError) -> PostgresConnection.Configuration {
    let tlsConfiguration: PostgresConnection.Configuration.TLS
    do {
      switch tls {
      case .disable:
        tlsConfiguration = .disable
      case .prefer, .require:
        var client = TLSConfiguration.makeClientConfiguration()
        client.certificateVerification = .none
        let context = try NIOSSLContext(configuration: client)
        tlsConfiguration = tls == .prefer ? .prefer(context) : .require(context)
      case .verifyFull:
        tlsConfiguration = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
      }
    } catch {
      throw PostgresDeadlineError(.badURL, "Cannot set up TLS for \(self): \(error)")
    }
    var configuration = PostgresConnection.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: tlsConfiguration)
    configuration.options.connectTimeout = .seconds(Int64(connectTimeout.components.seconds))
    return configuration
  }

  /// Opens a connection, named `applicationName` in `pg_stat_activity`; a failure is a
  /// ``PostgresDeadlineError`` that says what to do.
  public func connect(applicationName: String = "countdown", logger: Logger = .quiet)
    async throws(PostgresDeadlineError) -> PostgresConnection
  {
    var configuration = try configuration()
    configuration.options.additionalStartupParameters = [("application_name", applicationName)]
    do {
      return try await PostgresConnection.connect(
        configuration: configuration, id: Self.connectionIDs.next(), logger: logger)
    } catch {
      throw .wrapping(error, at: self, doing: "connecting")
    }
  }

  /// Numbers for postgres-nio's connection ids (used in its log metadata only).
  private static let connectionIDs = ConnectionIDs()
}

/// Hands out increasing connection ids.
private final class ConnectionIDs: Sendable {
  private let last = Atomic<Int>(0)

  func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}

extension Logger {
  /// A logger that drops everything: the default of this package's types (postgres-nio logs at
  /// debug and trace levels only, but a process may have bootstrapped a handler that prints those).
  public static var quiet: Logger {
    Logger(label: "CountdownPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
  }
}
