// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "OrderApp",
  platforms: [.iOS(.v18), .macOS(.v15)],
  dependencies: [
    .package(path: "../CountdownKit")
  ],
  targets: [
    .target(name: "OrderApp", dependencies: [.product(name: "CountdownKit", package: "CountdownKit")])
  ]
)
