/// The main-actor changes an operation of the core produced, in order (``Effects/changes``): up to a
/// mailbox chunk's worth in a ``MappedArray`` that the mailbox takes whole (nothing copied), the rest of
/// a larger operation beside it.
@usableFromInline
package struct ChangeBuffer: RandomAccessCollection, Sendable {
  /// The first changes, as many as a mailbox chunk holds.
  package var first: MappedArray<Effects.Change>
  /// The changes beyond.
  package var rest: [Effects.Change] = []

  /// An empty buffer whose first part holds `capacity` changes.
  package init(capacity: Int) {
    first = MappedArray(capacity: capacity)
  }

  @usableFromInline
  package var startIndex: Int { 0 }
  @usableFromInline
  package var endIndex: Int { first.count + rest.count }

  @usableFromInline
  package subscript(position: Int) -> Effects.Change {
    get { position < first.count ? first[position] : rest[position - first.count] }
    set {
      if position < first.count { first[position] = newValue } else { rest[position - first.count] = newValue }
    }
  }

  package mutating func append(_ change: Effects.Change) {
    if rest.isEmpty, first.hasRoom(for: 1) { first.append(change) } else { rest.append(change) }
  }

  package mutating func append(contentsOf changes: UnsafeBufferPointer<Effects.Change>) {
    let fitting = rest.isEmpty ? Swift.min(changes.count, first.capacity - first.count) : 0
    first.append(contentsOf: UnsafeBufferPointer(rebasing: changes[..<fitting]))
    rest.append(contentsOf: changes[fitting...])
  }

  /// Empties the buffer, keeping the first part's storage, and the rest's unless a burst made it large.
  package mutating func removeAll() {
    first.removeAll()
    rest.removeAll(keepingCapacity: rest.capacity <= 65_536)
  }
}
