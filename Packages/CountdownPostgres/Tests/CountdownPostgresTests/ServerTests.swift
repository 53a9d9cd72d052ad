import Testing

/// The suites that need a real server (`COUNTDOWN_POSTGRES_URL`), one after the other: they start
/// worker fleets, stop server processes and restart a cluster, and on a machine of two cores they
/// would otherwise starve one another's heartbeats and deadlines. Suites without a server run beside
/// them.
@Suite("Against a real server", .serialized, .enabled(if: TestServer.isConfigured, TestServer.skipReason))
enum ServerTests {}
