// swift-tools-version: 6.2
import Foundation
import PackageDescription

// A separate package, so that users of CountdownKit never resolve benchmark dependencies.
//
//   swift run -c release --package-path Benchmarks compare --scenario 1 --n 10000
//   swift package --package-path Benchmarks benchmark
let upcomingFeatures: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

// SwiftPM names a package depended on by path after its folder, which is wherever the repository was
// cloned: read that name off this file's location rather than assume it.
let countdownKit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "CountdownKitBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    // The three strategies apps use today, the engine adapter, and the measurements they share.
    .target(name: "CProcessStats"),
    .target(
      name: "BenchmarkSupport",
      dependencies: [
        "CProcessStats",
        .product(name: "CountdownCore", package: countdownKit),
        .product(name: "CountdownKit", package: countdownKit),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
      ]
    ),
    // Real-time comparisons, side by side in one process: `compare --help`.
    .executableTarget(name: "compare", dependencies: ["BenchmarkSupport"]),
    // One upsert of N rows into a board: time and memory per row, for profiling the load.
    .executableTarget(
      name: "upsertcost",
      dependencies: ["BenchmarkSupport", .product(name: "CountdownKit", package: countdownKit)]
    ),
    // The engine driven by hand on a manual clock, for instruction counts under callgrind:
    // `scripts/instructions-per-change`.
    .executableTarget(
      name: "changecost",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "CountdownKit", package: countdownKit),
        .product(name: "CountdownTesting", package: countdownKit),
      ]
    ),
    // Adding, extending and cancelling N countdowns one by one: µs per call on the main thread.
    .executableTarget(name: "handlecost", dependencies: [.product(name: "CountdownKit", package: countdownKit)]),
    // Calls into the app per second for N eight-second rings: step updates against animation plans.
    .executableTarget(
      name: "ringcalls",
      dependencies: ["BenchmarkSupport", .product(name: "CountdownKit", package: countdownKit)]
    ),
    // Calls into the app for a list's rows with text and a ring: one binding against the two apart.
    .executableTarget(
      name: "listcalls",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "CountdownKit", package: countdownKit),
        .product(name: "CountdownTesting", package: countdownKit),
      ]
    ),
    // Rounds of fire-and-forget countdowns: what the engine still holds, and memory, after each.
    .executableTarget(
      name: "releasecost",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "CountdownKit", package: countdownKit),
        .product(name: "CountdownTesting", package: countdownKit),
      ]
    ),
    // Micro-benchmarks run by package-benchmark: `swift package benchmark`.
    .executableTarget(
      name: "EngineMicro",
      dependencies: [
        .product(name: "CountdownCore", package: countdownKit),
        .product(name: "CountdownKit", package: countdownKit),
        .product(name: "CountdownTesting", package: countdownKit),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/EngineMicro",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Micro-benchmarks of CountdownCore's pure values (change schedules): `--target CoreMicro`.
    .executableTarget(
      name: "CoreMicro",
      dependencies: [
        .product(name: "CountdownCore", package: countdownKit),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/CoreMicro",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
