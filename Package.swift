// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Upcoming language features switched on for every target, in one place.
let upcomingFeatures: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

// COUNTDOWNKIT_INTERNAL_CHECKS=1 in the environment compiles the engine's invariant checks: after every
// mutation of the scheduler they walk all of its entries and queued items (O(n) each time), so they
// are for tests, not for production builds. `.ci/run` runs the engine tests once with them on.
let internalChecks: [SwiftSetting] =
  ProcessInfo.processInfo.environment["COUNTDOWNKIT_INTERNAL_CHECKS"] == nil
  ? [] : [.define("COUNTDOWNKIT_INTERNAL_CHECKS")]

let appleStandIns = ["SwiftUI", "UIKit", "QuartzCore", "WidgetKit", "ActivityKit", "UserNotifications"]

let package = Package(
  name: "CountdownKit",
  platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "CountdownCore", targets: ["CountdownCore"]),
    .library(name: "CountdownKit", targets: ["CountdownKit"]),
    .library(name: "CountdownTesting", targets: ["CountdownTesting"]),
    .library(name: "CountdownCombine", targets: ["CountdownCombine"]),
    // No product for the `countdown` command (its target is enough for `swift run countdown` here):
    // SwiftPM 6.3 fetches what any product of a dependency needs, so an `.executable` product would make
    // every app that depends on CountdownKit fetch the command's swift-argument-parser and GRDB.
    // Child processes for the command, CountdownPostgres's workers and the tests: own process group,
    // timeouts, a clean environment. Not part of the countdown API.
    .library(name: "Spawn", targets: ["Spawn"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // Combine's stand-in where Apple's Combine does not exist (Linux): CountdownCombine builds against it.
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    .target(name: "CountdownCore"),
    // A prefetch hint for the engine's hot loops (C: Swift has no way to say it).
    .target(name: "CountdownKitShims"),
    .target(
      name: "CountdownKit",
      dependencies: [
        "CountdownCore", "CountdownKitShims", .product(name: "HeapModule", package: "swift-collections"),
      ],
      swiftSettings: internalChecks
    ),
    .target(name: "CountdownTesting", dependencies: ["CountdownKit"]),
    // fork/exec in C: between the two only async-signal-safe calls may run, which Swift cannot promise.
    .target(name: "SpawnShims"),
    .target(name: "Spawn", dependencies: ["SpawnShims"]),
    .target(
      name: "CountdownCombine",
      dependencies: [
        "CountdownKit",
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]
    ),
    // Helpers shared by the test targets (a seeded random generator); not a product.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "CountdownCoreTests", dependencies: ["CountdownCore", "TestSupport"], exclude: ["Ring/Snapshots"]),
    .testTarget(name: "SpawnTests", dependencies: ["Spawn", "SpawnShims", "SpawnProbe", "CountdownTesting"]),
    // Starts a child and kills itself: SpawnTests check that the child ends with it.
    .executableTarget(name: "SpawnProbe", dependencies: ["Spawn"], path: "Tests/SpawnProbe"),
    .testTarget(name: "CountdownKitTests", dependencies: ["CountdownKit", "CountdownTesting", "TestSupport"]),
    .testTarget(
      name: "CountdownCombineTests",
      dependencies: [
        "CountdownCombine", "CountdownTesting",
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]
    ),
    // The `countdown` command: a live terminal countdown and a live order board on SQLite. Its code is a
    // library target (not a product), so that the tests and Examples/Package.swift's `countdown-pg` (the
    // same command with PostgreSQL support, Server/) build on it; the executable is Main/ alone. There the
    // same code is in another package than CountdownKit, so it compiles against the public API only, as a
    // client does (CI builds both).
    .target(
      name: "CountdownCommandLine",
      dependencies: [
        "CountdownKit", "Spawn",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's C API, to read the board's columns in place from a statement cursor.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      // Input/ is what the command reads from outside (time specs, numbers, database columns) and text
      // bound for the terminal: pure, Foundation and CountdownKit's `Deadline` only, so that Fuzz/run can
      // also build it with `swiftc -sanitize=fuzzer`.
      path: "Examples/countdown",
      exclude: ["Main", "Server"]
    ),
    .executableTarget(name: "countdown", dependencies: ["CountdownCommandLine"], path: "Examples/countdown/Main"),
    // A stand-in for FirebaseFirestore's Swift API, NOT Firebase: the documentation's Firestore examples
    // compile against it, with no more Sendable than Firebase declares (Tests/ThirdPartyStandIns/README.md).
    .target(name: "FirebaseFirestore", path: "Tests/ThirdPartyStandIns/FirebaseFirestore"),
    // The documentation's code: every ```swift block of README.md and the DocC catalogs is a region of a
    // file here (checked by `.ci/check-doc-blocks`).
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "CountdownKit", "CountdownTesting", "CountdownCombine", "FirebaseFirestore", "Spawn",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ] + appleStandIns.map { .target(name: $0, condition: .when(platforms: [.linux])) },
      exclude: ["Manifests"]
    ),
    // A probe app: uses the observable models, a board, schedules and the stored form across actors, in Swift 6
    // mode with complete concurrency checking and warnings as errors, so that an API a client cannot use
    // without a warning fails the build. Not a product.
    .executableTarget(
      name: "ConcurrencyProbe",
      dependencies: ["CountdownKit"],
      path: "Tests/ConcurrencyProbe",
      swiftSettings: [.unsafeFlags(["-strict-concurrency=complete", "-warnings-as-errors"])]
    ),
    // Unit tests of the command's pure parts, and end-to-end tests that run the built binary.
    .testTarget(
      name: "CountdownCommandTests",
      dependencies: [
        "CountdownCommandLine", "countdown", "Spawn", "SpawnShims", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Stand-ins for Apple's UI frameworks, NOT the frameworks: a few declarations with Apple's signatures
// under the frameworks' module names, so that the documentation's SwiftUI, UIKit, Core Animation,
// WidgetKit, ActivityKit and UserNotifications examples compile on Linux (see
// Tests/AppleStandIns/README.md). Not products; only DocumentationTests depends on them, and only on
// Linux. UIKit re-exports QuartzCore, as Apple's does.
package.targets += appleStandIns.map { name in
  .target(name: name, dependencies: name == "UIKit" ? ["QuartzCore"] : [], path: "Tests/AppleStandIns/\(name)")
}

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
