import CountdownInput
import CountdownKit
import Foundation

extension BoardController {
  /// Applies a fresh listing of the database: the orders that changed go to the boards, the ones
  /// gone are removed; the selection stays on the same order.
  func apply(_ listing: OrderStore.Listing) {
    unreadable = listing.unreadable
    var seen = Set<Int64>()
    for order in listing.orders {
      seen.insert(order.id)
      if orders[order.id] != order { apply(order, previous: orders[order.id]) }
    }
    for id in orders.keys where !seen.contains(id) {
      windows.remove(id)
      events.remove(id)
      finished.remove(id)
      orders[id] = nil
      printed[id] = nil
    }
    let selected = ids.indices.contains(cursor) ? ids[cursor] : nil
    ids = listing.orders.map(\.id)
    cursor = selected.flatMap { ids.firstIndex(of: $0) } ?? min(cursor, max(ids.count - 1, 0))
  }

  private func apply(_ order: Order, previous: Order?) {
    var order = order
    switch order.window {
    case .running(let end):
      do {
        try windows.set(order.id, end: end, total: Order.windowLength)
        if case .paused? = previous?.window { windows.resume(order.id) }
        // A window already over when it is loaded counts as finished, but did not "just" finish.
        if end > Date() { finished.remove(order.id) } else { finished.insert(order.id) }
      } catch {
        order.window = .invalid(TerminalText.sanitized("window_end cannot be counted to: \(error)"))
        windows.remove(order.id)
      }
    case .paused(let remaining):
      let now = ContinuousClock.now
      windows.set(order.id, to: Countdown(end: now.advanced(by: remaining), total: Order.windowLength).paused(at: now))
      if remaining > .zero { finished.remove(order.id) } else { finished.insert(order.id) }
    case .invalid:
      windows.remove(order.id)
      finished.remove(order.id)
    }
    let hasEvent = order.eventAt.map { (try? events.set(order.id, end: $0)) != nil } ?? false
    if !hasEvent {
      events.remove(order.id)
      eventValues[order.id] = nil
      order.eventAt = nil
    }
    if case .invalid = order.window { windowValues[order.id] = nil }
    orders[order.id] = order
    rowChanged(order.id)
  }

  func rowFinished(_ id: Int64) {
    guard orders[id] != nil, finished.insert(id).inserted else { return }
    lastFinished = (id, Date())
    setNeedsDraw()
  }

  /// How many rows are followed: `--rows` in plain output, what fits the terminal otherwise.
  var visibleCount: Int {
    plain ? plainRows : BoardFrameBuilder.listRows(forRows: Terminal.size.rows)
  }

  /// Binds one slot per visible row (after a scroll, a resize, a reload).
  func layout() {
    let count = min(visibleCount, ids.count)
    if cursor < top { top = cursor }
    if cursor >= top + visibleCount { top = cursor - visibleCount + 1 }
    top = max(0, min(top, max(ids.count - visibleCount, 0)))
    while windowSlots.count < count {
      windowSlots.append(windows.slot())
      eventSlots.append(events.slot())
    }
    while windowSlots.count > count {
      windowSlots.removeLast().unbind()
      eventSlots.removeLast().unbind()
    }
    let visible = Array(ids[top..<min(top + count, ids.count)])
    for (index, id) in visible.enumerated() {
      if windowSlots[index].boundID != id {
        windowSlots[index].bind(to: id) { [weak self] snapshot in
          self?.windowValues[id] = (snapshot.value, snapshot.isPaused)
          self?.rowChanged(id)
        }
      }
      if eventSlots[index].boundID != id {
        eventSlots[index].bind(to: id) { [weak self] snapshot in
          self?.eventValues[id] = snapshot.isFinished ? "started" : snapshot.value
          self?.rowChanged(id)
        }
      }
    }
    let shown = Set(visible)
    windowValues = windowValues.filter { shown.contains($0.key) }
    eventValues = eventValues.filter { shown.contains($0.key) }
    // Invalid rows are on no board, so no slot renders them: show them here.
    for id in visible { rowChanged(id) }
    setNeedsDraw()
  }

  /// How order `id` shows now, if it exists.
  func row(_ id: Int64) -> OrderRow? {
    guard let order = orders[id] else { return nil }
    let window = windowValues[id]
    return OrderRow(order: order, window: window?.value, isPaused: window?.isPaused ?? false, event: eventValues[id])
  }

  /// Order `id` changed: redraw, or in plain output print its line once both parts are known.
  func rowChanged(_ id: Int64) {
    guard plain else { return setNeedsDraw() }
    guard let index = ids.firstIndex(of: id), (top..<(top + visibleCount)).contains(index), let row = row(id),
      row.window != .loading, orders[id]?.eventAt == nil || row.event != nil
    else { return }
    let line = row.plainLine
    guard printed[id] != line else { return }
    printed[id] = line
    if !holdsOutput { Terminal.write(line + "\n") }
  }
}
