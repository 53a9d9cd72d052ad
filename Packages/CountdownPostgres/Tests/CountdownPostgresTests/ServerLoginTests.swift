import CountdownPostgres
import Foundation
import PostgresNIO
import Testing

extension ServerTests {
  /// Logging in as libpq would: passwords from the environment or the password file, never the command
  /// line; TLS with the server's certificate checked against a root certificate.
  @Suite("Logging in: passwords and TLS")
  struct ServerLoginTests {
    /// A self-signed certificate of an authority that signed nothing the server has.
    static let otherAuthority = """
      -----BEGIN CERTIFICATE-----
      MIIBjjCCATWgAwIBAgIUG5iJey4OofLXWvW6p9AJa4zH0GEwCgYIKoZIzj0EAwIw
      HDEaMBgGA1UEAwwRYW5vdGhlci1hdXRob3JpdHkwIBcNMjYxMTI1MjAyMzIwWhgP
      MjEyNjExMDEyMDIzMjBaMBwxGjAYBgNVBAMMEWFub3RoZXItYXV0aG9yaXR5MFkw
      EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQZ/1PQ6MCK3OWfWhrJMtf79ijp/5AeKE
      RlxufXPvgH5/bEO28YwupHvggWk8eVSbdoKqmeA8BfyavmT5TNy3OqNTMFEwHQYD
      VR0OBBYEFDkdWMvHViLm3o5jiM4rqrIAOH+6MB8GA1UdIwQYMBaAFDkdWMvHViLm
      3o5jiM4rqrIAOH+6MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIg
      FHZmWUT7viziIrxTWCs6IL3CdIuDJEWuahrAxG1V9TgCICC02799gayLVvLkaZt7
      BVHflEAW7ogzWI2t83lgau4S
      -----END CERTIFICATE-----

      """

    /// A user that must give its password (a member of `password_login`, which `scripts/postgres-dev`
    /// makes the server ask a password of), dropped by `body`'s end.
    static func withPasswordUser(_ body: (_ name: String, _ password: String) async throws -> Void) async throws {
      let database = try await TestServer.freshDatabase("login")
      let name = "cd_login_\(UInt32.random(in: 0...UInt32.max))"
      try await database.execute(
        """
        DO $$ BEGIN CREATE ROLE password_login NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
        """)
      try await database.execute("CREATE ROLE \(name) LOGIN PASSWORD 'p:ss\\w0rd' IN ROLE password_login")
      do {
        try await body(name, "p:ss\\w0rd")
      } catch {
        await database.drop()
        try? await database.executeOnServer("DROP ROLE IF EXISTS \(name)")
        throw error
      }
      await database.drop()
      try? await database.executeOnServer("DROP ROLE IF EXISTS \(name)")
    }

    /// Whether `location` logs in, and the failure if not.
    static func logsIn(_ location: PostgresLocation) async -> PostgresDeadlineError? {
      do {
        let connection = try await location.connect(applicationName: "countdown-tests")
        connection.closeNow()
        return nil
      } catch {
        return error
      }
    }

    @Test func aPasswordComesFromTheEnvironmentOrTheFileNeverTheCommandLine() async throws {
      guard let server = TestServer.url.flatMap({ try? PostgresLocation(url: $0) }) else { return }
      let homes = TemporaryHomes()
      defer { homes.removeAll() }
      try await Self.withPasswordUser { name, password in
        let url = "postgres://\(name)@\(server.host):\(server.port)/postgres?sslmode=disable"
        let home = try homes.make()
        let none = await Self.logsIn(try PostgresLocation(url: url, environment: ["HOME": home]))
        #expect(none?.kind == .refused, "the server asks this user for a password: \(String(describing: none))")
        #expect(
          await Self.logsIn(try PostgresLocation(url: url, environment: ["HOME": home, "PGPASSWORD": password])) == nil)
        let escaped = password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
        let file = try homes.make([".pgpass": ("\(server.host):*:*:\(name):\(escaped)", 0o600)])
        #expect(await Self.logsIn(try PostgresLocation(url: url, environment: ["HOME": file])) == nil)
        let loose = try homes.make([".pgpass": ("*:*:*:\(name):\(escaped)", 0o644)])
        let ignored = try PostgresLocation(url: url, environment: ["HOME": loose])
        #expect(ignored.warnings.count == 1)
        #expect(await Self.logsIn(ignored)?.kind == .refused, "a file others can read is not used")

        // The command: no password in its arguments, PGPASSWORD in its environment.
        let result = try await CommandTests.run(
          ["board", "--once", "--db", url], environment: ["PGPASSWORD": password, "HOME": home])
        #expect(result.errors.contains("No table orders in"), "logged in, and found no table: \(result)")
      }
    }

    @Test(.enabled { await TestServer.certificate() != nil })
    func verifyCAAndVerifyFullCheckTheServersCertificate() async throws {
      guard let url = TestServer.url, let certificate = await TestServer.certificate() else { return }
      let homes = TemporaryHomes()
      defer { homes.removeAll() }
      let home = try homes.make([
        ".postgresql/root.crt": (try String(contentsOfFile: certificate, encoding: .utf8), 0o644),
        "other.crt": (Self.otherAuthority, 0o644),
      ])
      for mode in ["verify-ca", "verify-full", "require"] {
        let location = try PostgresLocation(url: url + "?sslmode=\(mode)", environment: ["HOME": home])
        let connection = try await location.connect(applicationName: "countdown-tests")
        var encrypted = false
        for try await ssl in try await connection.query(
          "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: .quiet
        ).decode(Bool.self) {
          encrypted = ssl
        }
        try await connection.close()
        #expect(encrypted, "\(mode) encrypts")
      }
      for mode in ["verify-ca", "verify-full", "require"] {
        let location = try PostgresLocation(
          url: url + "?sslmode=\(mode)&sslrootcert=\(home)/other.crt", environment: ["HOME": home])
        let failure = await Self.logsIn(location)
        #expect(failure != nil, "\(mode): a certificate the root did not sign is refused")
        #expect(failure?.description.contains("certificate") == true, "\(String(describing: failure))")
        print("ServerLoginTests: \(mode) with another root: \(String(describing: failure))")
      }
    }
  }
}
