/// Equality of values whose type may or may not be `Equatable`.
@usableFromInline
enum Equality {
  /// `a == b` when `T` is `Equatable`; otherwise `false` (two such values are never taken as equal).
  ///
  /// Opens `T`'s conformance once, on the metatype, and compares the values as they are: no existential
  /// box per value (this runs for every countdown added, to find its display's class).
  @inlinable
  static func areEqual<T>(_ a: T, _ b: T) -> Bool {
    guard let type = T.self as? any Equatable.Type else { return false }
    return areEqual(a, b, as: type)
  }

  @inlinable
  static func areEqual<T, E: Equatable>(_ a: T, _ b: T, as _: E.Type) -> Bool {
    // `E` is `T` (it is `T.self`, cast), so the values are reinterpreted as what they are.
    withUnsafePointer(to: a) { a in
      withUnsafePointer(to: b) { b in
        UnsafeRawPointer(a).load(as: E.self) == UnsafeRawPointer(b).load(as: E.self)
      }
    }
  }
}
