import Foundation
import NIOCore
import NIOSSL
import PostgresNIO

/// Why a PostgreSQL deadline operation failed, in words that say what to do about it.
public struct PostgresDeadlineError: Error, CustomStringConvertible, Sendable, Hashable {
  /// What kind of failure this is: whether retrying can help.
  public enum Kind: Sendable, Hashable {
    /// A URL that cannot be used; fix it.
    case badURL
    /// The server cannot be reached, or the connection was lost: retrying may help.
    case unreachable
    /// The server refused the user, password or database.
    case refused
    /// The table or its triggers are missing: run `countdown board init --db …` (or `DeadlineTable.create`).
    case schemaMissing
    /// A row or argument that cannot be used (no such id, an absurd date).
    case badInput
    /// The server answered with an error to a query.
    case server
  }

  /// What kind of failure this is.
  public let kind: Kind
  /// The message, for a person.
  public let description: String

  /// A failure of `kind` described by `description`.
  public init(_ kind: Kind, _ description: String) {
    self.kind = kind
    self.description = description
  }

  /// Whether connecting again later may succeed (the server was down or the connection dropped).
  public var isTransient: Bool { kind == .unreachable }

  /// `error` (from postgres-nio or NIO) as a clear failure about `location`.
  static func wrapping(_ error: any Error, at location: PostgresLocation, doing action: String)
    -> PostgresDeadlineError
  {
    if let error = error as? PostgresDeadlineError { return error }
    if let error = error as? PSQLError {
      if let state = error.serverInfo?[.sqlState] {
        let message = error.serverInfo?[.message] ?? "an error"
        switch state {
        case "28P01", "28000":
          return .init(.refused, "PostgreSQL at \(location) refused \(location.username): \(message)")
        case "3D000":
          return .init(
            .refused,
            "\(message) on \(location.host):\(location.port). Create it (createdb \(location.database)) or pass another URL."
          )
        case "42P01", "42883", "42703":
          return .init(.schemaMissing, "\(message) in \(location). \(DeadlineTable.initAdvice(location))")
        case "57P01", "57P02", "57P03", "08000", "08003", "08006":
          return .init(.unreachable, "The connection to \(location) was closed by the server (\(message)).")
        default:
          return .init(.server, "PostgreSQL at \(location) answered \(action) with \(state): \(message)")
        }
      }
      switch error.code {
      case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
        return .init(.unreachable, "The connection to \(location) was lost while \(action).")
      case .connectionError where error.underlying is NIOSSLError:
        let cause = error.underlying.map { "\($0)" } ?? "no detail"
        return .init(
          .refused,
          "The TLS handshake with \(location.host):\(location.port) failed; the server's certificate was not accepted "
            + "(\(cause)). Check the root certificate (sslrootcert=, PGSSLROOTCERT or ~/.postgresql/root.crt) and "
            + "sslmode (now \(location.tls.rawValue)).")
      case .authMechanismRequiresPassword:
        return .init(
          .refused,
          "PostgreSQL at \(location) asks \(location.username) for a password. Give it in PGPASSWORD or in "
            + "~/.pgpass (one line host:port:database:user:password, chmod 600), not on a command line.")
      case .connectionError:
        let cause = error.underlying.map { "\($0)" } ?? "no answer"
        return .init(
          .unreachable,
          "Cannot reach the PostgreSQL server at \(location.host):\(location.port) (\(cause)). Is it running? "
            + "A throwaway one for trying: scripts/postgres-dev start")
      case .sslUnsupported:
        return .init(.refused, "\(location.host):\(location.port) does not offer TLS; use ?sslmode=disable or prefer.")
      default:
        return .init(.server, "PostgreSQL at \(location) failed while \(action): \(error.code)")
      }
    }
    if error is CancellationError { return .init(.unreachable, "Cancelled while \(action).") }
    if error is ChannelError || error is IOError {
      return .init(.unreachable, "The connection to \(location) failed while \(action): \(error)")
    }
    return .init(.server, "Failed while \(action) at \(location): \(error)")
  }
}
