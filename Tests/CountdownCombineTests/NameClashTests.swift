// No public name of CountdownCombine (nor of CountdownKit, which it re-exports to its users through
// its API) hides one of Combine's: Combine's names, unqualified beside `import CountdownCombine`, are
// Combine's (OpenCombine's, on Linux, where it stands in for Combine with the same names).
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import CountdownCombine
import CountdownKit
import Foundation
import Testing

@Suite struct CombineNameClashTests {
  #if canImport(Combine)
    static let combine = "Combine"
  #else
    static let combine = "OpenCombine"
  #endif

  @Test func combinesNamesAreCombines() {
    let combines: [Any.Type] = [
      (any Publisher).self, (any Subscriber).self, (any Subscription).self, (any Cancellable).self,
      (any Subject).self, AnyCancellable.self, AnyPublisher<Int, Never>.self, Just<Int>.self,
      Future<Int, Never>.self, Empty<Int, Never>.self, PassthroughSubject<Int, Never>.self,
      CurrentValueSubject<Int, Never>.self, Subscribers.Demand.self, Publishers.Map<Just<Int>, Int>.self,
      Published<Int>.self, (any ObservableObject).self,
    ]
    for type in combines {
      #expect(Self.module(of: type) == Self.combine, "\(String(reflecting: type)) is not \(Self.combine)'s")
    }
    // And they work as Combine's do, beside the module's publishers.
    var received: [Int] = []
    let cancellable = Just(1).map { $0 + 1 }.sink { received.append($0) }
    cancellable.cancel()
    #expect(received == [2])
  }

  /// CountdownCombine's public top-level names are its own.
  @Test func countdownCombinesNamesAreItsOwn() throws {
    let ours: [String: Any.Type] = [
      "CountdownPublisher": CountdownPublisher<AdaptiveDisplay, ContinuousClock>.self,
      "BoardFinishedPublisher": BoardFinishedPublisher<Int>.self,
    ]
    for (name, type) in ours {
      #expect(Self.module(of: type) == "CountdownCombine", "\(name) is \(String(reflecting: type))")
    }
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/CountdownCombine")
    let declaration = try Regex(
      #"^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias|func|var|let)\s+(\w+)"#
    )
    var declared: Set<String> = []
    for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        if let match = try declaration.firstMatch(in: String(line)), let name = match.output[1].substring {
          declared.insert(String(name))
        }
      }
    }
    #expect(declared == Set(ours.keys), "add CountdownCombine's new public names here, beside Combine's")
  }

  static func module(of type: Any.Type) -> String {
    var name = String(reflecting: type)
    if name.hasPrefix("any ") { name.removeFirst(4) }
    return String(name.prefix { $0 != "." })
  }
}
