// The timing wheel: where a lane keeps its near due instants.

extension Schedule {
  /// The due instants of one lane that fall within the next 64 slots; farther and overdue ones wait in
  /// the lane's heap.
  ///
  /// A countdown that shows whole seconds changes once a second, so each change puts its row back in
  /// the wheel about eleven slots ahead: queueing a change is an append to an array, not a sift-down
  /// through a heap of a million items, and a wake-up walks its slots' items in order. Slot `k`
  /// (counted from the engine's origin) holds the items due in `k·w ..< (k+1)·w` and is served at its
  /// end, `(k+1)·w`: nothing is early and nothing is more than `w` late.
  struct Wheel: Sendable {
    static let slotCount = 64

    /// The slot width `w`, in ticks.
    let width: Tick
    private(set) var slots: [[Item]]
    /// The earliest due tick in each occupied slot: a wake-up in the middle of a slot looks at its
    /// items only if some of them are due.
    private var earliestDue: [Tick]
    /// How many items at the front of each slot are known to be stale and no longer counted (see
    /// ``dropStaleFront(where:)``): they leave when their slot is taken, emptied or compacted.
    private var stalePrefix: [Int]
    /// Bit `i` is set when `slots[i]` holds items.
    private var occupied: UInt64 = 0
    /// The number of the earliest slot that can hold items; slots `cursor ..< cursor + 64` map onto
    /// `slots` modulo 64.
    private(set) var cursor: Int64 = 0

    init(width: Tick) {
      self.width = width
      slots = Array(repeating: [], count: Self.slotCount)
      earliestDue = Array(repeating: Ticks.max, count: Self.slotCount)
      stalePrefix = Array(repeating: 0, count: Self.slotCount)
    }

    /// The number of the slot `tick` falls in (floor division: ticks before the origin are negative).
    func slotNumber(of tick: Tick) -> Int64 {
      Self.slotNumber(of: tick, width: width)
    }

    /// The number of the slot `tick` falls in on a wheel of slots `width` wide (positive).
    @inline(__always)
    static func slotNumber(of tick: Tick, width: Tick) -> Int64 {
      // Due ticks are almost always at or after the origin: an unsigned division, which has no
      // overflow case to check.
      if tick >= 0 {
        return Int64(truncatingIfNeeded: UInt64(truncatingIfNeeded: tick) / UInt64(truncatingIfNeeded: width))
      }
      let (quotient, remainder) = tick.quotientAndRemainder(dividingBy: width)
      return remainder < 0 ? quotient &- 1 : quotient
    }

    /// The end of the slot `tick` falls in: when an item due at `tick` is served.
    func slotEnd(of tick: Tick) -> Tick {
      end(ofSlot: slotNumber(of: tick))
    }

    /// When slot `number` is served: its end, saturated to the tick range.
    func end(ofSlot number: Int64) -> Tick {
      let (end, overflow) = (number + 1).multipliedReportingOverflow(by: width)
      return overflow ? Ticks.max : Swift.min(end, Ticks.max)
    }

    /// Puts `item` in its slot; `false` (and nothing changes) if it is overdue or beyond the wheel. A
    /// slot that had no storage takes a buffer from `spare`.
    mutating func insert(_ item: Item, spare: inout [[Item]]) -> Bool {
      let number = slotNumber(of: item.due)
      guard number >= cursor, number - cursor < Int64(Self.slotCount) else { return false }
      let slot = Self.place(of: number)
      let bit: UInt64 = 1 << UInt64(slot)
      if occupied & bit == 0 {
        if slots[slot].capacity == 0, let buffer = spare.popLast() { slots[slot] = buffer }
        earliestDue[slot] = item.due
        occupied |= bit
      } else if item.due < earliestDue[slot] {
        earliestDue[slot] = item.due
      }
      slots[slot].append(item)
      return true
    }

    /// Puts `items` in their slots, and hands those it does not take (overdue, or beyond the wheel) to
    /// `reject`: what ``insert(_:spare:)`` does for each, with one append per slot for the lot.
    ///
    /// The items are sorted by slot first (a counting sort, which keeps their order within a slot), so
    /// that each slot's storage is checked and grown once, not once per item.
    mutating func insert(
      contentsOf items: UnsafeBufferPointer<LanedItem>, spare: inout [[Item]], reject: (Item) -> Void
    ) {
      withUnsafeTemporaryAllocation(of: Int.self, capacity: items.count) { places in
        withUnsafeTemporaryAllocation(of: Item.self, capacity: items.count) { sorted in
          withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.slotCount) { tally in
            withUnsafeTemporaryAllocation(of: Tick.self, capacity: Self.slotCount) { earliest in
              // Per slot: how many items go there (then where its items start in `sorted`), and the
              // earliest due tick among them.
              tally.initialize(repeating: 0)
              earliest.initialize(repeating: Ticks.max)
              var touched: UInt64 = 0
              // Locals, so that the loop does not reload them after each call to `reject`. Counts stay
              // below `items.count`, and slot numbers below 2⁶³ / 10⁶ (ticks are nanoseconds, slots at
              // least a millisecond wide): the arithmetic below cannot overflow.
              let (width, cursor) = (self.width, self.cursor)
              for position in items.indices {
                let item = items[position].item
                let number = Self.slotNumber(of: item.due, width: width)
                guard number >= cursor, number &- cursor < Int64(Self.slotCount) else {
                  places[position] = -1
                  reject(item)
                  continue
                }
                let slot = Self.place(of: number)
                places[position] = slot
                tally[slot] &+= 1
                earliest[slot] = Swift.min(earliest[slot], item.due)
                touched |= 1 << UInt64(slot)
              }
              // Each slot's start in `sorted`, slot by slot.
              var start = 0
              var remaining = touched
              while remaining != 0 {
                let slot = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                (tally[slot], start) = (start, start + tally[slot])
              }
              for position in items.indices {
                let slot = places[position]
                guard slot >= 0 else { continue }
                let end = tally[slot]
                sorted.initializeElement(at: end, to: items[position].item)
                tally[slot] = end &+ 1
              }
              // `tally[slot]` is now where the slot's items end.
              start = 0
              remaining = touched
              while remaining != 0 {
                let slot = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                let bit: UInt64 = 1 << UInt64(slot)
                if occupied & bit == 0 {
                  if slots[slot].capacity == 0, let buffer = spare.popLast() { slots[slot] = buffer }
                  earliestDue[slot] = earliest[slot]
                  occupied |= bit
                } else if earliest[slot] < earliestDue[slot] {
                  earliestDue[slot] = earliest[slot]
                }
                slots[slot].append(contentsOf: UnsafeBufferPointer(rebasing: sorted[start..<tally[slot]]))
                start = tally[slot]
              }
            }
          }
        }
      }
    }

    /// When the earliest occupied slot ends; `nil` when the wheel is empty.
    var nextServe: Tick? {
      guard occupied != 0 else { return nil }
      return end(ofSlot: earliestOccupied)
    }

    /// The number of the earliest occupied slot (the wheel must not be empty).
    private var earliestOccupied: Int64 {
      let start = Self.place(of: cursor)
      let rotated = (occupied >> UInt64(start)) | (start == 0 ? 0 : occupied << UInt64(Self.slotCount - start))
      return cursor + Int64(rotated.trailingZeroBitCount)
    }

    /// Moves every item due at or before `now` into `serving`: the buffers of whole slots as they are
    /// (a slot's storage travels, its items are not copied), the due part of `now`'s own slot into a
    /// spare buffer. Moves the cursor up to `now`'s slot.
    mutating func takeDue(at now: Tick, into serving: inout [[Item]], spare: inout [[Item]]) {
      let current = slotNumber(of: now)
      guard current >= cursor else { return }
      let last = Swift.min(current, cursor + Int64(Self.slotCount - 1))
      var number = cursor
      while number <= last {
        let slot = Self.place(of: number)
        if occupied & (1 << UInt64(slot)) != 0 {
          forgetStalePrefix(of: slot)
          if number < current {
            serving.append(slots[slot])
            // Left without storage: a slot takes a spare buffer only when something is put in it, so
            // that the spares do not settle one by one into all 64 slots (64 buffers as large as the
            // largest slot ever served, for good).
            slots[slot] = []
            occupied &= ~(1 << UInt64(slot))
          } else if earliestDue[slot] <= now {
            var due = spare.popLast() ?? []
            var kept = 0
            var earliest = Ticks.max
            for position in slots[slot].indices {
              let item = slots[slot][position]
              if item.due <= now {
                due.append(item)
              } else {
                slots[slot][kept] = item
                kept += 1
                earliest = Swift.min(earliest, item.due)
              }
            }
            slots[slot].removeLast(slots[slot].count - kept)
            earliestDue[slot] = earliest
            if slots[slot].isEmpty {
              occupied &= ~(1 << UInt64(slot))
              // An emptied slot gives its storage back too (see above).
              if spare.count < Schedule.spareLimit { spare.append(slots[slot]) }
              slots[slot] = []
            }
            serving.append(due)
          }
        }
        number += 1
      }
      cursor = current
    }

    /// Drops the stale items at the front of the earliest occupied slots, and slots that hold nothing
    /// else, so that ``nextServe`` is not a wake-up for nothing; returns how many were dropped.
    ///
    /// Stops at the first valid item, so that it costs next to nothing when the front is valid. The
    /// stale items before it are only counted out (``stalePrefix``), not moved: removing them from the
    /// front of the array would shift the whole slot on every call, quadratic in countdowns extended or
    /// cancelled one by one in the order they were added. The prefix is cut off when it is at least
    /// half the slot, which keeps the cost amortised O(1).
    mutating func dropStaleFront(where isStale: (Item) -> Bool) -> Int {
      var dropped = 0
      while occupied != 0 {
        let slot = Self.place(of: earliestOccupied)
        let prefix = stalePrefix[slot]
        if let firstValid = slots[slot][prefix...].firstIndex(where: { !isStale($0) }) {
          dropped += firstValid - prefix
          stalePrefix[slot] = firstValid
          if firstValid >= 64, firstValid * 2 >= slots[slot].count { forgetStalePrefix(of: slot) }
          break
        }
        dropped += slots[slot].count - prefix
        slots[slot].removeAll(keepingCapacity: true)
        stalePrefix[slot] = 0
        occupied &= ~(1 << UInt64(slot))
      }
      return dropped
    }

    /// Removes the stale prefix of `slot` (already counted out) from its array.
    private mutating func forgetStalePrefix(of slot: Int) {
      guard stalePrefix[slot] > 0 else { return }
      slots[slot].removeSubrange(0..<stalePrefix[slot])
      stalePrefix[slot] = 0
    }

    /// Drops the items `isStale` says are stale; returns how many.
    mutating func removeAll(where isStale: (Item) -> Bool) -> Int {
      var removed = 0
      for slot in slots.indices where !slots[slot].isEmpty {
        forgetStalePrefix(of: slot)
        let before = slots[slot].count
        slots[slot].removeAll(where: isStale)
        removed += before - slots[slot].count
        if slots[slot].isEmpty { occupied &= ~(1 << UInt64(slot)) }
      }
      return removed
    }

    /// Every item held (stale prefixes left out), in no particular order.
    var items: [Item] { slots.indices.flatMap { slots[$0][stalePrefix[$0]...] } }

    private static func place(of number: Int64) -> Int {
      Int(truncatingIfNeeded: number) & (slotCount - 1)
    }
  }
}
