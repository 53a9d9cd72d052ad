import Foundation
import Logging
import NIOSSL
public import PostgresNIO
import Synchronization

extension PostgresLocation {
  /// What is checked of the server's certificate.
  enum CertificateCheck: Sendable, Hashable {
    /// Nothing (encryption against eavesdropping only).
    case none
    /// That it was issued by one of ``PostgresLocation/rootCertificates``.
    case chain
    /// That, and that it names the host (or its IP address).
    case chainAndHost
  }

  /// What libpq checks in this mode: the chain whenever a root certificate is there (even for `prefer`
  /// and `require`), the host name for `verify-full` only.
  var certificateCheck: CertificateCheck {
    switch tls {
    case .verifyFull: .chainAndHost
    case .verifyCA: .chain
    case .disable, .allow, .prefer, .require: rootCertificates == nil ? .none : .chain
    }
  }

  /// The TLS attempts to make, in order: `allow` tries without first, `prefer` falls back to no TLS if
  /// the TLS handshake itself fails (as libpq does).
  private func attempts() throws(PostgresDeadlineError) -> [PostgresConnection.Configuration.TLS] {
    switch tls {
    case .disable: return [.disable]
    case .allow: return [.disable, .require(try tlsContext())]
    case .prefer: return [.prefer(try tlsContext()), .disable]
    case .require, .verifyCA, .verifyFull: return [.require(try tlsContext())]
    }
  }

  /// The TLS context for ``certificateCheck``.
  private func tlsContext() throws(PostgresDeadlineError) -> NIOSSLContext {
    var client = TLSConfiguration.makeClientConfiguration()
    switch certificateCheck {
    case .none: client.certificateVerification = .none
    case .chain: client.certificateVerification = .noHostnameVerification
    case .chainAndHost: client.certificateVerification = .fullVerification
    }
    do {
      switch rootCertificates {
      case .file(let path)?:
        client.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
      case .system?, nil:
        client.trustRoots = .default
      }
      return try NIOSSLContext(configuration: client)
    } catch {
      throw PostgresDeadlineError(
        .badURL, "Cannot use the root certificate for \(self) (\(rootCertificates.map { "\($0)" } ?? "none")): \(error)"
      )
    }
  }

  /// postgres-nio's configuration for one TLS attempt.
  private func configuration(tls: PostgresConnection.Configuration.TLS) -> PostgresConnection.Configuration {
    var configuration =
      if host.hasPrefix("/") {
        PostgresConnection.Configuration(
          unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: username, password: password, database: database)
      } else {
        PostgresConnection.Configuration(
          host: host, port: port, username: username, password: password, database: database, tls: tls)
      }
    configuration.options.connectTimeout = .seconds(Int64(connectTimeout.components.seconds))
    return configuration
  }

  /// Opens a connection, named `applicationName` in `pg_stat_activity`; a failure is a
  /// ``PostgresDeadlineError`` that says what to do.
  public func connect(applicationName: String = "countdown", logger: Logger = .quiet)
    async throws(PostgresDeadlineError) -> PostgresConnection
  {
    let attempts = try attempts()
    var failure: (any Error)?
    for (index, tls) in attempts.enumerated() {
      var configuration = configuration(tls: tls)
      configuration.options.additionalStartupParameters = [("application_name", applicationName)]
      do {
        return try await PostgresConnection.connect(
          configuration: configuration, id: Self.connectionIDs.next(), logger: logger)
      } catch {
        failure = error
        let isLast = index == attempts.count - 1
        // `allow` goes on to TLS when the server refused the plain connection; `prefer` to no TLS
        // when the handshake failed (not when the server refused the user or the database).
        if isLast || !Self.mayRetry(error, after: tls) { break }
      }
    }
    throw .wrapping(failure ?? CancellationError(), at: self, doing: "connecting")
  }

  /// Whether a failed attempt with `tls` is worth the next one.
  private static func mayRetry(_ error: any Error, after tls: PostgresConnection.Configuration.TLS) -> Bool {
    guard let error = error as? PSQLError else { return true }
    if let state = error.serverInfo?[.sqlState] { return state == "28000" || state == "28P01" }
    return error.code != .connectionError
  }

  /// Numbers for postgres-nio's connection ids (used in its log metadata only).
  private static let connectionIDs = ConnectionIDs()
}

/// Hands out increasing connection ids.
private final class ConnectionIDs: Sendable {
  private let last = Atomic<Int>(0)

  func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
