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
  ],
  targets: [
    .target(name: "CountdownCore"),
    .testTarget(name: "CountdownCoreTests", dependencies: ["CountdownCore"]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
