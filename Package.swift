// swift-tools-version: 6.1
import PackageDescription

// Upcoming language features switched on for every target, in one place.
let upcomingFeatures: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "CountdownKit",
  platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "CountdownCore", targets: ["CountdownCore"]),
    .executable(name: "countdown", targets: ["countdown"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    .target(name: "CountdownCore"),
    .testTarget(name: "CountdownCoreTests", dependencies: ["CountdownCore"]),
    // The `countdown` command: a live terminal countdown and a live order board on SQLite.
    .executableTarget(
      name: "countdown",
      dependencies: [
        "CountdownCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Examples/countdown"
    ),
    // Unit tests of the command's pure parts, and end-to-end tests that run the built binary.
    .testTarget(name: "CountdownCommandTests", dependencies: ["countdown"]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
