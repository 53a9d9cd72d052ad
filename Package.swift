// swift-tools-version: 6.1
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

let package = Package(
  name: "CountdownKit",
  platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "CountdownCore", targets: ["CountdownCore"]),
    .library(name: "CountdownKit", targets: ["CountdownKit"]),
    .library(name: "CountdownTesting", targets: ["CountdownTesting"]),
    .library(name: "CountdownCombine", targets: ["CountdownCombine"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // Combine's stand-in where Apple's Combine does not exist (Linux): CountdownCombine builds against it.
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    .target(name: "CountdownCore"),
    .target(
      name: "CountdownKit",
      dependencies: ["CountdownCore", .product(name: "HeapModule", package: "swift-collections")],
      swiftSettings: internalChecks
    ),
    .target(name: "CountdownTesting", dependencies: ["CountdownKit"]),
    .target(
      name: "CountdownCombine",
      dependencies: [
        "CountdownKit",
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]
    ),
    .testTarget(name: "CountdownCoreTests", dependencies: ["CountdownCore"], exclude: ["Ring/Snapshots"]),
    .testTarget(name: "CountdownKitTests", dependencies: ["CountdownKit", "CountdownTesting"]),
    .testTarget(
      name: "CountdownCombineTests",
      dependencies: [
        "CountdownCombine", "CountdownTesting",
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
