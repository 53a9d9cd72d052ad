// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "OrderApp",
  platforms: [.iOS(.v18), .macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/your-org/CountdownKit", from: "0.1.0")
  ],
  targets: [
    .target(name: "OrderApp", dependencies: [.product(name: "CountdownKit", package: "CountdownKit")])
  ]
)
