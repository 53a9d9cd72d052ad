// swift-tools-version: 6.2
import Foundation
import PackageDescription

// CountdownPostgres: deadlines in a PostgreSQL table, followed by boards on many machines and expired
// exactly once by a fleet of workers. A separate package, so that apps that use CountdownKit never
// resolve the server stack (postgres-nio, SwiftNIO, swift-crypto).
//
//   swift build --package-path Packages/CountdownPostgres
//   COUNTDOWN_POSTGRES_URL=postgres://… swift test --package-path Packages/CountdownPostgres
//
// `countdown-pg`, the `countdown` command with PostgreSQL support, is Examples/Package.swift's; the tests
// that run it find it there (see CountdownPostgresTests' `Binaries`).
let upcomingFeatures: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

// SwiftPM names a package depended on by path after its folder, which is wherever the repository was
// cloned: read that name off this file's location rather than assume it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "CountdownPostgres",
  platforms: [.macOS(.v15)],
  products: [.library(name: "CountdownPostgres", targets: ["CountdownPostgres"])],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .target(
      name: "CountdownPostgres",
      dependencies: [
        .product(name: "CountdownKit", package: root),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
      ]
    ),
    // The long measurements against a real server (convergence under load and faults, exactly-once
    // expiry under SIGKILL, bursts, takeover, the load of a million rows): `scripts/postgres-bench`.
    // Not a product.
    .executableTarget(
      name: "PostgresBench",
      dependencies: [
        "CountdownPostgres",
        .product(name: "CountdownKit", package: root),
        .product(name: "Spawn", package: root),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Integration tests against a real server: skipped (with the reason printed) unless
    // COUNTDOWN_POSTGRES_URL names one; `.ci/run` and `scripts/postgres-dev` start a throwaway one.
    .testTarget(
      name: "CountdownPostgresTests",
      dependencies: [
        "CountdownPostgres",
        .product(name: "CountdownKit", package: root),
        .product(name: "CountdownTesting", package: root),
        .product(name: "Spawn", package: root),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
