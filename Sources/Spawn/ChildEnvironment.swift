#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child's environment, built on purpose: the parent's without its secrets, plus what the child is
/// meant to get.
///
/// ```swift
/// let environment = ChildEnvironment.inherited().setting(["COUNTDOWN_TITLE": "Tea"])
/// ```
public struct ChildEnvironment: Sendable, Hashable {
  /// The variables, by name.
  public var values: [String: String]

  /// An environment of exactly `values`.
  public init(_ values: [String: String] = [:]) {
    self.values = values
  }

  /// Variables that hold credentials and that no child gets from ``inherited(removing:)`` by default:
  /// `PGPASSWORD` (libpq's password; a follow-up command does not need the database's password).
  public static let secrets: Set<String> = ["PGPASSWORD"]

  /// The parent's environment as it is now, without the variables named in `removing`.
  public static func inherited(removing names: Set<String> = secrets) -> ChildEnvironment {
    var values: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        let name = String(text[..<equals])
        if !names.contains(name) { values[name] = String(text[text.index(after: equals)...]) }
      }
      entry += 1
    }
    return ChildEnvironment(values)
  }

  /// The value of variable `name`, if set.
  public subscript(name: String) -> String? {
    get { values[name] }
    set { values[name] = newValue }
  }

  /// This environment with `values` set (replacing variables of the same names).
  public func setting(_ values: [String: String]) -> ChildEnvironment {
    ChildEnvironment(self.values.merging(values) { $1 })
  }

  /// This environment without the variables named in `names`.
  public func removing(_ names: some Sequence<String>) -> ChildEnvironment {
    var copy = self
    for name in names { copy.values[name] = nil }
    return copy
  }
}
