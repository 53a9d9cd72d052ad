/// Reading ahead what a batch of deliveries will touch, so that the processor fetches it in parallel.
///
/// A main-actor delivery reads a subscriber's closure in its table, then what the closure captured:
/// memory scattered over every subscriber, a cache miss each, paid one after the other if nothing is
/// done. Reading it all first, in passes whose reads do not depend on one another, lets those misses
/// overlap (``SinkTable`` does it before each run of deliveries). This is the one place that looks at a
/// closure's representation: a thick function is two words, the code pointer and the context (null when
/// the closure captures nothing), which is Swift's stable ABI. The addresses are only read from, and
/// only while the closures are held.
@usableFromInline
enum Prefetch {
  /// The address of what `function` captured (0 if nothing, or if `F` is not a thick function).
  @inlinable
  static func contextAddress<F>(of function: F) -> UInt {
    guard MemoryLayout<F>.size == 2 * MemoryLayout<UInt>.size else { return 0 }
    return withUnsafeBytes(of: function) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
  }
}
