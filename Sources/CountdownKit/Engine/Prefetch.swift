/// Reading ahead what a batch of deliveries will touch, so that the processor fetches it in parallel.
///
/// A main-actor delivery reads a subscriber's closure in its table, then what the closure captured:
/// memory scattered over every subscriber, a cache miss each, paid one after the other if nothing is
/// done. Reading it all first, in passes whose reads do not depend on one another, lets those misses
/// overlap. This is the one place that looks at a closure's representation: a thick function is two
/// words, the code pointer and the context (null when the closure captures nothing), which is Swift's
/// stable ABI. The addresses are only read from, and only while the closures are held.
@usableFromInline
enum Prefetch {
  /// The address of what `function` captured (0 if nothing, or if `F` is not a thick function).
  @inlinable
  static func contextAddress<F>(of function: F) -> UInt {
    guard MemoryLayout<F>.size == 2 * MemoryLayout<UInt>.size else { return 0 }
    return withUnsafeBytes(of: function) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
  }

  /// Reads the table entries (references to the objects that hold the closures, one word each, 0 for
  /// none) of the changes at the start of `changes` whose display class is that of the first one, the
  /// objects they point to, and what the closures captured (their `hints`): the memory their
  /// deliveries will read first. Returns what it read and how many changes those are.
  @usableFromInline
  static func closures(
    _ sinks: UnsafeRawBufferPointer, hints: UnsafeBufferPointer<UInt>, for changes: UnsafeBufferPointer<Effects.Change>
  ) -> (touched: UInt, end: Int) {
    guard let first = changes.first, let base = sinks.baseAddress else { return (0, Effects.runLength(changes)) }
    let word = MemoryLayout<UInt>.size
    let count = sinks.count / word
    var touched: UInt = 0
    var end = 0
    while end < changes.count, changes[end].displayClass == first.displayClass {
      if Int(changes[end].sink) < count {
        touched &+= base.load(fromByteOffset: Int(changes[end].sink) * word, as: UInt.self)
      }
      end += 1
    }
    let changes = UnsafeBufferPointer(rebasing: changes[..<end])
    for change in changes where Int(change.sink) < count {
      // The closure sits after the object's two header words.
      let object = base.load(fromByteOffset: Int(change.sink) * word, as: UInt.self)
      if let object = UnsafeRawPointer(bitPattern: object) {
        touched &+= UInt(object.load(fromByteOffset: 2 * word, as: UInt8.self))
      }
      if Int(change.sink) < hints.count, let hint = UnsafeRawPointer(bitPattern: hints[Int(change.sink)]) {
        touched &+= UInt(hint.load(as: UInt8.self))
      }
    }
    return (touched, end)
  }
}
