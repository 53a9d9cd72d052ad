import CountdownKit
import Foundation
import Synchronization

extension BoardController {
  /// How many rows are shown: `--rows` in plain output, what fits the terminal otherwise.
  var visibleCount: Int {
    plain ? plainRows : BoardFrameBuilder.listRows(forRows: Terminal.size.rows)
  }

  /// The position of the selected row on screen.
  var selectedIndex: Int? {
    selectedID.flatMap { id in shown.firstIndex { $0.id == id } }
  }

  /// Reads the rows on screen again (after a change that touches them, a resize, a move): a screenful
  /// from ``top`` on, or the last screenful when nothing is left there. The selection stays on its
  /// order, or where it was if the order is gone.
  func refreshShown() {
    let index = selectedIndex ?? 0
    do {
      shown = try store.orders(from: top ?? .min, limit: visibleCount)
      if shown.isEmpty, top != nil {
        shown = try store.orders(before: nil, limit: visibleCount)
        top = shown.first?.id
      }
      if selectedIndex == nil { selectedID = shown.isEmpty ? nil : shown[min(index, shown.count - 1)].id }
      message = nil
    } catch {
      message = TerminalText.sanitized("\(error)")
    }
    layout()
  }

  /// Moves the selection by `rows` (down when positive), scrolling when it leaves the screen.
  func move(by rows: Int) {
    guard let index = selectedIndex, let first = shown.first else { return }
    let target = index + rows
    if shown.indices.contains(target) {
      selectedID = shown[target].id
      return layout()
    }
    do {
      if target >= shown.count {
        let ahead = try store.orders(from: first.id, limit: target + 1)
        guard let reached = ahead.indices.last.map({ min($0, target) }) else { return }
        selectedID = ahead[reached].id
        top = ahead[max(0, reached - visibleCount + 1)].id
      } else {
        let above = try store.orders(before: first.id, limit: -target)
        guard let firstAbove = above.first else { return }
        let selected = above.count >= -target ? above[above.count + target] : firstAbove
        selectedID = selected.id
        top = selected.id
      }
    } catch {
      message = TerminalText.sanitized("\(error)")
    }
    refreshShown()
  }

  /// Selects the first order.
  func moveToFirst() {
    top = nil
    selectedID = nil
    refreshShown()
  }

  /// Selects the last order, with a full screen above it.
  func moveToLast() {
    do {
      let last = try store.orders(before: nil, limit: visibleCount)
      top = last.first?.id
      selectedID = last.last?.id
    } catch {
      message = TerminalText.sanitized("\(error)")
    }
    refreshShown()
  }

  /// Binds one slot per shown row (after a scroll, a resize, a change on screen).
  func layout() {
    let count = shown.count
    while windowSlots.count < count {
      windowSlots.append(boards.windows.slot())
      eventSlots.append(boards.events.slot())
    }
    while windowSlots.count > count {
      windowSlots.removeLast().unbind()
      eventSlots.removeLast().unbind()
    }
    for (index, order) in shown.enumerated() {
      let id = order.id
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
    let ids = Set(shown.map(\.id))
    windowValues = windowValues.filter { ids.contains($0.key) }
    eventValues = eventValues.filter { ids.contains($0.key) }
    printed = printed.filter { ids.contains($0.key) }
    // Invalid rows are on no board, so no slot renders them: show them here.
    for order in shown { rowChanged(order.id) }
    setNeedsDraw()
  }

  /// How a shown order looks now.
  func row(_ order: Order) -> OrderRow {
    let window = windowValues[order.id]
    return OrderRow(
      order: order, window: window?.value, isPaused: window?.isPaused ?? false, event: eventValues[order.id])
  }

  /// Order `id` changed: redraw, or in plain output print its line once both parts are known.
  func rowChanged(_ id: Int64) {
    guard plain else { return setNeedsDraw() }
    guard let order = shown.first(where: { $0.id == id }) else { return }
    let row = row(order)
    guard row.window != .loading, order.eventAt == nil || row.event != nil else { return }
    let line = row.plainLine
    guard printed[id] != line else { return }
    printed[id] = line
    if !holdsOutput { Terminal.write(line + "\n") }
  }

  /// A window reached zero while the board ran.
  func rowFinished(_ id: Int64) {
    guard boards.tally.withLock({ $0.rowFinished(id, at: Date()) }) else { return }
    setNeedsDraw()
  }

  /// What the board shows now.
  var screen: BoardScreen {
    let counts = boards.tally.withLock { tally in
      (
        total: tally.total, loaded: tally.loaded, isLoaded: tally.isLoaded, finished: tally.finishedCount,
        invalid: tally.invalidCount, unreadable: tally.unreadable, lastFinished: tally.lastFinished
      )
    }
    let orderCount = counts.isLoaded ? boards.windows.count + (counts.invalid ?? 0) : counts.total
    let urgencies = counts.isLoaded ? boards.urgencyCounts(at: Date()) : nil
    return BoardScreen(
      path: store.path, rows: shown.map(row), selected: selectedIndex, orderCount: orderCount,
      loading: counts.isLoaded ? nil : counts.total.map { BoardScreen.Loading(loaded: counts.loaded, total: $0) },
      finishedCount: counts.finished, underHalfHour: urgencies?.underHalfHour,
      underFiveMinutes: urgencies?.underFiveMinutes, invalidCount: counts.invalid, unreadableCount: counts.unreadable,
      lastFinished: counts.lastFinished.flatMap(lastFinishedLine), message: message ?? sourceProblem,
      connection: store.connectionStatus)
  }

  /// "#2974 Pickup: Sven E. at 9:44:07 PM" for the last finished order (its title read once).
  private func lastFinishedLine(_ last: (id: Int64, at: Date)) -> String? {
    if let cached = lastFinishedText, cached.id == last.id { return cached.text }
    guard let order = shown.first(where: { $0.id == last.id }) ?? (try? store.order(last.id)) else { return nil }
    let text = "#\(order.id) \(order.title) at \(last.at.formatted(date: .omitted, time: .standard))"
    lastFinishedText = (last.id, text)
    return text
  }
}
