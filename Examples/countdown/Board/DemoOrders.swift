import Foundation

/// The demo database: a few thousand orders with windows ending at varied times from now on.
enum DemoOrders {
  /// Where the demo database lives: `$XDG_CACHE_HOME/countdown`, `~/.cache/countdown`, or the
  /// temporary directory, whichever can be created first.
  static func defaultPath() -> String {
    let environment = ProcessInfo.processInfo.environment
    var directories: [URL] = []
    if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
      directories.append(URL(fileURLWithPath: cache).appending(path: "countdown"))
    }
    directories.append(FileManager.default.homeDirectoryForCurrentUser.appending(path: ".cache/countdown"))
    directories.append(FileManager.default.temporaryDirectory.appending(path: "countdown"))
    for directory in directories {
      if (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil {
        return directory.appending(path: "demo.sqlite").path
      }
    }
    return FileManager.default.temporaryDirectory.appending(path: "countdown-demo.sqlite").path
  }

  /// `count` orders relative to `now`, the same for the same `seed`: about 2% already over, 3%
  /// ending within two minutes, the rest spread over eight hours; 5% paused; a third with an event
  /// in the next three days.
  static func orders(count: Int, now: Date, seed: UInt64 = 2026)
    -> [(title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)]
  {
    var random = SplitMix64(seed: seed)
    let names = [
      "Anna K.", "Boris P.", "Chen L.", "Dana M.", "Emil R.", "Fatima S.", "Goran T.", "Hana V.", "Ivo Z.", "Jana B.",
      "Kofi A.", "Lena W.", "Mateo G.", "Nora H.", "Olga D.", "Pavel N.", "Quinn F.", "Rosa C.", "Sven E.", "Tereza J.",
    ]
    let kinds = ["Fitting", "Alteration", "Pickup", "Tailoring", "Return"]
    return (0..<count).map { _ in
      let title = "\(kinds.randomElement(using: &random)!): \(names.randomElement(using: &random)!)"
      let roll = Double.random(in: 0..<1, using: &random)
      let offset: Double =
        switch roll {
        case ..<0.02: -Double.random(in: 60...3_600, using: &random)
        case ..<0.05: Double.random(in: 5...120, using: &random)
        default: Double.random(in: 120...(8 * 3_600), using: &random)
        }
      let paused =
        Double.random(in: 0..<1, using: &random) < 0.05 ? Double.random(in: 300...7_200, using: &random).rounded() : nil
      let event =
        Double.random(in: 0..<1, using: &random) < 0.33
        ? now.addingTimeInterval(Double.random(in: 60...259_200, using: &random).rounded()) : nil
      return (title, now.addingTimeInterval(offset.rounded()), paused, event)
    }
  }
}

/// A small seeded random number generator, so the demo data is the same on every machine.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
