#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fixed-capacity array of plain values in memory mapped for it alone (`mmap`) and unmapped when its
/// storage goes: the mailbox's change and tick buffers.
///
/// A burst (a hundred thousand countdowns added in one loop) fills many such buffers and lets them go
/// once delivered. Taken from malloc, they left holes between the allocations that stay (the
/// subscribers' closures, made in the same loop), and the holes stay resident after the burst
/// (Benchmarks/README.md has the figure). Mapped, they are given back to the system when they go,
/// whichever thread made them.
///
/// Copy on write, like `Array`. The one place in the mailbox that touches raw memory; its invariant:
/// the first `count` elements of the mapping are initialized, `count <= capacity` (checked on every
/// append, and on every access under `COUNTDOWNKIT_INTERNAL_CHECKS`).
@usableFromInline
package struct MappedArray<Element: BitwiseCopyable & Sendable>: RandomAccessCollection, Sendable {
  /// The mapping and how much of it is used.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    // Unchecked: the mapping is written only through a uniquely referenced `MappedArray` (copy on
    // write), and read by whoever holds the array; the mailbox hands arrays from thread to thread under
    // its lock, as it does `Array`s.
    let base: UnsafeMutablePointer<Element>
    let capacity: Int
    var count = 0
    private let bytes: Int

    init(capacity: Int) {
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      bytes = Swift.max((capacity * MemoryLayout<Element>.stride + page - 1) / page * page, page)
      guard let mapping = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        mapping != MAP_FAILED
      else { preconditionFailure("CountdownKit: mmap of \(bytes) bytes failed (errno \(errno))") }
      base = mapping.bindMemory(to: Element.self, capacity: capacity)
      self.capacity = capacity
    }

    deinit {
      munmap(UnsafeMutableRawPointer(base), bytes)
    }
  }

  private var storage: Storage

  /// An empty array with room for `capacity` elements.
  package init(capacity: Int) {
    storage = Storage(capacity: capacity)
  }

  @usableFromInline
  package var startIndex: Int { 0 }
  @usableFromInline
  package var endIndex: Int { storage.count }
  package var capacity: Int { storage.capacity }

  @usableFromInline
  package subscript(position: Int) -> Element {
    get {
      #if COUNTDOWNKIT_INTERNAL_CHECKS
        precondition(position >= 0 && position < storage.count, "Internal inconsistency: index \(position) of \(count)")
      #endif
      return storage.base[position]
    }
    set {
      precondition(position >= 0 && position < storage.count, "Internal inconsistency: index \(position) of \(count)")
      makeUnique()
      storage.base[position] = newValue
    }
  }

  /// Whether `additional` more elements fit.
  package func hasRoom(for additional: Int) -> Bool {
    storage.count + additional <= storage.capacity
  }

  package mutating func append(_ element: Element) {
    precondition(hasRoom(for: 1), "Internal inconsistency: appending to a full MappedArray of \(capacity)")
    makeUnique()
    storage.base[storage.count] = element
    storage.count += 1
  }

  package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
    guard let source = elements.baseAddress else { return }
    precondition(hasRoom(for: elements.count), "Internal inconsistency: appending past a MappedArray's capacity")
    makeUnique()
    (storage.base + storage.count).update(from: source, count: elements.count)
    storage.count += elements.count
  }

  /// Empties the array, keeping its mapping.
  package mutating func removeAll() {
    makeUnique()
    storage.count = 0
  }

  /// Calls `body` with the elements' storage.
  package func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows
    -> Result
  {
    try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: storage.count)) }
  }

  private mutating func makeUnique() {
    guard !isKnownUniquelyReferenced(&storage) else { return }
    let copy = Storage(capacity: storage.capacity)
    copy.base.update(from: storage.base, count: storage.count)
    copy.count = storage.count
    storage = copy
  }
}
