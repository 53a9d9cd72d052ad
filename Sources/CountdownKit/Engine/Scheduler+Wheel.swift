// The timing wheel: where a tolerance class keeps its near due instants.

extension Scheduler {
  /// The due instants of one tolerance class that fall within the next 64 slots (each a little
  /// narrower than the tolerance, see ``Scheduler/slotWidth(forTolerance:)``); farther ones (and
  /// overdue ones) wait in the class's heap.
  ///
  /// A countdown that shows whole seconds changes once a second, so each change puts it back in the
  /// wheel about eleven slots ahead: serving a change costs an append to an array, not a heap's
  /// sift-down over a million items, and a wake-up walks its slot's items in order. Slot `k` (counted
  /// from the engine's origin) holds the items due in `k·w ..< (k+1)·w`; it is served at its end,
  /// `(k+1)·w`, so nothing is early and nothing is more than `w` late.
  struct Wheel {
    static let slotCount = 64

    /// The slot width `w`, in attoseconds.
    let width: Int128
    private(set) var slots: [[QueueItem]]
    /// Bit `i` is set when `slots[i]` is not empty.
    private var occupied: UInt64 = 0
    /// The number of the earliest slot that can hold items; slots `cursor ..< cursor + 64` map onto
    /// `slots` modulo 64.
    private(set) var cursor: Int128 = 0
    /// The items held, stale ones included.
    private(set) var count = 0

    init(width: Duration) {
      self.width = width.attoseconds
      slots = Array(repeating: [], count: Self.slotCount)
    }

    /// The number of the slot `instant` falls in.
    func slotNumber(of instant: Instant) -> Int128 {
      let (quotient, remainder) = instant.attoseconds.quotientAndRemainder(dividingBy: width)
      return remainder < 0 ? quotient - 1 : quotient
    }

    /// The end of the slot `instant` falls in: when an item due at `instant` is served.
    func slotEnd(of instant: Instant) -> Instant {
      EngineTick(attoseconds: (slotNumber(of: instant) + 1) * width)
    }

    /// Puts `item` in its slot; `false` (and nothing changes) if it is overdue or beyond the wheel.
    mutating func insert(_ item: QueueItem) -> Bool {
      let number = slotNumber(of: item.due)
      guard number >= cursor, number - cursor < Int128(Self.slotCount) else { return false }
      let slot = Self.place(of: number)
      slots[slot].append(item)
      occupied |= 1 << UInt64(slot)
      count += 1
      return true
    }

    /// When the earliest occupied slot ends; `nil` when the wheel is empty.
    var nextServe: Instant? {
      guard occupied != 0 else { return nil }
      return EngineTick(attoseconds: (earliestOccupied + 1) * width)
    }

    /// The number of the earliest occupied slot (the wheel must not be empty).
    private var earliestOccupied: Int128 {
      let start = Self.place(of: cursor)
      let rotated = (occupied >> UInt64(start)) | (start == 0 ? 0 : occupied << UInt64(Self.slotCount - start))
      return cursor + Int128(rotated.trailingZeroBitCount)
    }

    /// Moves every item due at or before `now` into `batch` (slot by slot, in the order they came)
    /// and moves the cursor up to `now`'s slot.
    mutating func takeDue(at now: Instant, into batch: inout [QueueItem]) {
      let current = slotNumber(of: now)
      guard current >= cursor else { return }
      let last = Swift.min(current, cursor + Int128(Self.slotCount - 1))
      var number = cursor
      while number <= last {
        let slot = Self.place(of: number)
        if occupied & (1 << UInt64(slot)) != 0 {
          if number < current {
            // Every item of an earlier slot is due.
            batch.append(contentsOf: slots[slot])
            count -= slots[slot].count
            slots[slot].removeAll(keepingCapacity: true)
          } else {
            var kept = 0
            for position in slots[slot].indices {
              let item = slots[slot][position]
              if item.due <= now {
                batch.append(item)
              } else {
                slots[slot][kept] = item
                kept += 1
              }
            }
            count -= slots[slot].count - kept
            slots[slot].removeLast(slots[slot].count - kept)
          }
          if slots[slot].isEmpty { occupied &= ~(1 << UInt64(slot)) }
        }
        number += 1
      }
      cursor = current
    }

    /// Drops the stale items at the front of the earliest occupied slots, and slots that hold nothing
    /// else, so that ``nextServe`` is not a wake-up for nothing; returns how many were dropped.
    ///
    /// Stops at the first valid item, so that it costs next to nothing when the front is valid.
    mutating func dropStaleFront(where isStale: (QueueItem) -> Bool) -> Int {
      var dropped = 0
      while occupied != 0 {
        let slot = Self.place(of: earliestOccupied)
        if let firstValid = slots[slot].firstIndex(where: { !isStale($0) }) {
          slots[slot].removeSubrange(0..<firstValid)
          dropped += firstValid
          break
        }
        dropped += slots[slot].count
        slots[slot].removeAll(keepingCapacity: true)
        occupied &= ~(1 << UInt64(slot))
      }
      count -= dropped
      return dropped
    }

    /// Drops the items `isStale` says are stale; returns how many.
    mutating func removeAll(where isStale: (QueueItem) -> Bool) -> Int {
      var removed = 0
      for slot in slots.indices where !slots[slot].isEmpty {
        let before = slots[slot].count
        slots[slot].removeAll(where: isStale)
        removed += before - slots[slot].count
        if slots[slot].isEmpty { occupied &= ~(1 << UInt64(slot)) }
      }
      count -= removed
      return removed
    }

    /// Every item held, in no particular order.
    var items: FlattenSequence<[[QueueItem]]> { slots.joined() }

    private static func place(of number: Int128) -> Int {
      Int(truncatingIfNeeded: number) & (slotCount - 1)
    }
  }
}
