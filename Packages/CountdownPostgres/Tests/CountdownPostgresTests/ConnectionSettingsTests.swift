import Foundation
import Testing

@testable import CountdownPostgres

/// Connection settings as libpq reads them: the environment, the password file, `sslmode` (no server).
@Suite("Connection settings as libpq reads them (no server)")
struct ConnectionSettingsTests {
  @Test func theEnvironmentFillsWhatTheURLLeavesOut() throws {
    let homes = TemporaryHomes()
    defer { homes.removeAll() }
    let environment = [
      "HOME": try homes.make(), "PGHOST": "db.internal", "PGPORT": "6432", "PGUSER": "app", "PGPASSWORD": "s3cret",
      "PGDATABASE": "shop", "PGSSLMODE": "require", "PGCONNECT_TIMEOUT": "4",
    ]
    let location = try PostgresLocation(url: "postgres://", environment: environment)
    #expect(location.host == "db.internal")
    #expect(location.port == 6_432)
    #expect(location.username == "app")
    #expect(location.password == "s3cret")
    #expect(location.database == "shop")
    #expect(location.tls == .require)
    #expect(location.connectTimeout == .seconds(4))
    let overridden = try PostgresLocation(
      url: "postgres://ops@10.0.0.7/audit?sslmode=disable&port=5433", environment: environment)
    #expect(overridden.host == "10.0.0.7" && overridden.username == "ops" && overridden.database == "audit")
    #expect(overridden.port == 5_433 && overridden.tls == .disable, "what the URL says wins, as in libpq")
    #expect(overridden.password == "s3cret", "PGPASSWORD applies to any user, as in libpq")
  }

  @Test func badEnvironmentValuesAreClearErrors() throws {
    let homes = TemporaryHomes()
    defer { homes.removeAll() }
    let home = try homes.make()
    for (variable, value) in [("PGPORT", "๓"), ("PGPORT", "70000"), ("PGSSLMODE", "maybe"), ("PGHOST", "a,b")] {
      #expect {
        try PostgresLocation(url: "postgres://", environment: ["HOME": home, variable: value])
      } throws: { error in
        (error as? PostgresDeadlineError).map { $0.kind == .badURL && $0.description.contains("$\(variable)") } == true
      }
    }
  }

  @Test func thePasswordFileGivesThePasswordOfTheFirstMatchingLine() throws {
    let homes = TemporaryHomes()
    defer { homes.removeAll() }
    let home = try homes.make([
      ".pgpass": (
        """
        # comments and wrong lines are skipped
        db.internal:5432:other:app:wrong-database
        not a line
        db.internal:*:shop:app:pa\\:ss\\\\word
        *:*:*:*:fallback
        """, 0o600
      )
    ])
    let location = try PostgresLocation(url: "postgres://app@db.internal/shop", environment: ["HOME": home])
    #expect(location.password == "pa:ss\\word")
    #expect(location.warnings.isEmpty)
    let other = try PostgresLocation(url: "postgres://ops@elsewhere:6000/x", environment: ["HOME": home])
    #expect(other.password == "fallback")
    let given = try PostgresLocation(url: "postgres://app:given@db.internal/shop", environment: ["HOME": home])
    #expect(given.password == "given", "a password in the URL wins over the file")
    let fromVariable = try PostgresLocation(
      url: "postgres://app@db.internal/shop", environment: ["HOME": home, "PGPASSWORD": "env"])
    #expect(fromVariable.password == "env", "PGPASSWORD wins over the file")
  }

  @Test(arguments: [0o644, 0o640, 0o604, 0o660])
  func aPasswordFileOthersCanReadIsIgnoredWithAWarning(mode: Int) throws {
    let homes = TemporaryHomes()
    defer { homes.removeAll() }
    let home = try homes.make([".pgpass": ("*:*:*:*:secret", mode)])
    let location = try PostgresLocation(url: "postgres://app@db/shop", environment: ["HOME": home])
    #expect(location.password == nil)
    #expect(location.warnings.count == 1)
    #expect(location.warnings.first?.contains("chmod 600") == true, "\(location.warnings)")
  }

  @Test func aReadOnlyPasswordFileIsUsedAndPGPASSFILEPointsElsewhere() throws {
    let homes = TemporaryHomes()
    defer { homes.removeAll() }
    let home = try homes.make([".pgpass": ("*:*:*:*:home", 0o400), "other/pass": ("*:*:*:*:other", 0o600)])
    #expect(try PostgresLocation(url: "postgres://app@db/shop", environment: ["HOME": home]).password == "home")
    let elsewhere = try PostgresLocation(
      url: "postgres://app@db/shop", environment: ["HOME": home, "PGPASSFILE": "\(home)/other/pass"])
    #expect(elsewhere.password == "other")
  }

  @Test func sslModesCheckWhatLibpqChecks() throws {
    let homes = TemporaryHomes()
    defer { homes.removeAll() }
    let bare = try homes.make()
    let withRoot = try homes.make([".postgresql/root.crt": ("-----BEGIN CERTIFICATE-----", 0o644)])
    func location(_ mode: String, home: String, extra: String = "") throws -> PostgresLocation {
      try PostgresLocation(url: "postgres://app@db/shop?sslmode=\(mode)\(extra)", environment: ["HOME": home])
    }
    #expect(try location("prefer", home: bare).certificateCheck == .none)
    #expect(try location("require", home: bare).certificateCheck == .none)
    #expect(
      try location("require", home: withRoot).certificateCheck == .chain,
      "with a root certificate, require verifies the chain, as in libpq")
    #expect(try location("verify-ca", home: withRoot).certificateCheck == .chain)
    #expect(try location("verify-full", home: withRoot).certificateCheck == .chainAndHost)
    #expect(try location("verify-ca", home: withRoot).rootCertificates == .file("\(withRoot)/.postgresql/root.crt"))
    #expect(try location("verify-full", home: bare, extra: "&sslrootcert=system").rootCertificates == .system)
    for mode in ["verify-ca", "verify-full"] {
      #expect {
        try location(mode, home: bare)
      } throws: { error in
        (error as? PostgresDeadlineError).map {
          $0.kind == .badURL && $0.description.contains("root.crt") && $0.description.contains("sslrootcert")
        } == true
      }
    }
    let socket = try PostgresLocation(url: "postgres://app@/shop?host=/var/run/postgresql", environment: ["HOME": bare])
    #expect(socket.host == "/var/run/postgresql" && socket.tls == .disable, "no TLS over a Unix socket, as in libpq")
  }
}
