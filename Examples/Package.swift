// swift-tools-version: 6.2
import Foundation
import PackageDescription

// `countdown-pg`: the `countdown` command with PostgreSQL support (`--db postgres://…`, `countdown expire`).
// A package of its own, so that neither apps that use CountdownKit nor the root package's `swift run
// countdown` resolve the server stack (postgres-nio, SwiftNIO, swift-crypto).
//
//   swift build -c release --package-path Examples --product countdown-pg
//   Examples/.build/release/countdown-pg board --db postgres://…
//
// The command's code is the root package's (`CountdownCommandLine`, the same folder and files); here it is
// compiled in another package, so it can use only CountdownKit's public API, as any client. Server/ is
// what it needs of a server, on CountdownPostgres, passed to it by countdown-pg's main.swift.
let upcomingFeatures: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

// SwiftPM names a package depended on by path after its folder, which is wherever the repository was
// cloned: read that name off this file's location rather than assume it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "CountdownExamples",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "countdown-pg", targets: ["countdown-pg"])
  ],
  dependencies: [
    .package(path: ".."),
    .package(path: "../Packages/CountdownPostgres"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
  ],
  targets: [
    // The root package's target of the same name, on the same folder.
    .target(
      name: "CountdownCommandLine",
      dependencies: [
        .product(name: "CountdownKit", package: root),
        .product(name: "Spawn", package: root),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      path: "countdown",
      exclude: ["Main", "Server"]
    ),
    .executableTarget(
      name: "countdown-pg",
      dependencies: [
        "CountdownCommandLine",
        .product(name: "CountdownPostgres", package: "CountdownPostgres"),
        .product(name: "CountdownKit", package: root),
        .product(name: "Spawn", package: root),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
      ],
      path: "countdown/Server"
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
