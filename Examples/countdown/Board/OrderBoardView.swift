import CountdownKit
import Foundation

/// The live order board: every order on a `CountdownBoard`, only the visible rows bound to slots,
/// edits from other processes picked up within a quarter of a second.
@MainActor
final class OrderBoardView {
  typealias WindowDisplay = CombinedDisplay<
    CombinedDisplay<MappedDisplay<OffsetDisplay<TimeDisplay>, String>, PhaseDisplay<Urgency>>, ProgressDisplay
  >
  typealias EventDisplay = MappedDisplay<OffsetDisplay<TimeDisplay>, String>

  private let store: any OrderSource
  private let engine: Engine
  private let windows: CountdownBoard<Int64, WindowDisplay, ContinuousClock>
  private let events: CountdownBoard<Int64, EventDisplay, ContinuousClock>
  private let plain: Bool
  private let plainRows: Int

  private var orders: [Int64: Order] = [:]
  private var ids: [Int64] = []
  private var top = 0
  private var cursor = 0
  private var windowSlots: [CountdownSlot<Int64, WindowDisplay, ContinuousClock>] = []
  private var eventSlots: [CountdownSlot<Int64, EventDisplay, ContinuousClock>] = []
  private var windowValues: [Int64: (value: OrderRow.WindowValue, isPaused: Bool)] = [:]
  private var eventValues: [Int64: String] = [:]
  private var printed: [Int64: String] = [:]
  private var finished: Set<Int64> = []
  private var lastFinished: (id: Int64, at: Date)?
  private var dataVersion = 0
  private var message: String?
  private var drawScheduled = false
  /// For `--once`: lines are collected, not printed as they come.
  private var holdsOutput = false
  private var ended: CheckedContinuation<Void, Never>?
  private var signals: SignalHandlers?
  private var keys: KeyReader?

  init(store: any OrderSource, engine: Engine, locale: Locale, plain: Bool, plainRows: Int) {
    self.store = store
    self.engine = engine
    self.plain = plain
    self.plainRows = plainRows
    let text = TimeDisplay.text(.coarse, locale: locale)
    windows = engine.board(
      of: Int64.self,
      display: text.combined(with: OrderRow.phases).combined(with: .progress(steps: 4, total: Order.windowLength)))
    events = engine.board(of: Int64.self, display: TimeDisplay.text(.digital, locale: locale))
  }

  /// Shows the board until `q` (live) or a signal (plain); with `once`, prints the rows and returns.
  func run(once: Bool = false) async throws {
    windows.onFinish { [weak self] id in self?.rowFinished(id) }
    dataVersion = try store.dataVersion()
    try reload()
    if plain {
      signals = SignalHandlers(live: false)
    } else {
      Terminal.enterLiveMode()
      signals = SignalHandlers(
        live: true,
        onContinue: { [weak self] in
          Terminal.enterLiveMode()
          self?.layout()
        },
        onResize: { [weak self] in self?.layout() })
      keys = KeyReader { [weak self] keys in self?.press(keys) }
    }
    if once {
      // Slots render at once when bound: collect the lines, then print them in order.
      holdsOutput = true
      layout()
      if ids.isEmpty {
        FileHandle.standardError.write(
          Data(
            """
            No orders in \(store.path). Add one with: countdown board add "Fitting: Ada L." 45m --db \(store.path)
            or fill it with demo orders: countdown board --db \(store.path) --seed 100

            """.utf8))
      }
      for index in top..<min(top + visibleCount, ids.count) {
        if let line = printed[ids[index]] { Terminal.write(line + "\n") }
      }
      return
    }
    layout()
    let watcher = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(250))
        self?.checkForEdits()
      }
    }
    await withCheckedContinuation { ended = $0 }
    watcher.cancel()
    keys?.cancel()
    Terminal.restore()
  }

  // MARK: - Data

  /// Polls `PRAGMA data_version`: it changes when another process commits to the file.
  private func checkForEdits() {
    do {
      let version = try store.dataVersion()
      guard version != dataVersion else { return }
      dataVersion = version
      try reload()
      layout()
    } catch {
      message = "cannot read the database: \(error)"
      setNeedsDraw()
    }
  }

  /// Reads every order and applies the ones that changed to the boards.
  private func reload() throws {
    let fresh = try store.orders()
    var seen = Set<Int64>()
    for order in fresh {
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
    ids = fresh.map(\.id)
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
        order.window = .invalid("window_end cannot be counted to: \(error)")
        windows.remove(order.id)
      }
    case .paused(let remaining):
      windows.setPaused(order.id, remaining: remaining, total: Order.windowLength)
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

  private func rowFinished(_ id: Int64) {
    guard orders[id] != nil, finished.insert(id).inserted else { return }
    lastFinished = (id, Date())
    setNeedsDraw()
  }

  // MARK: - Slots

  private var visibleCount: Int {
    plain ? plainRows : max(1, Terminal.size.rows - 5)
  }

  /// Binds one slot per visible row (after a scroll, a resize, a reload).
  private func layout() {
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

  private func row(_ id: Int64) -> OrderRow? {
    guard let order = orders[id] else { return nil }
    let window = windowValues[id]
    return OrderRow(order: order, window: window?.value, isPaused: window?.isPaused ?? false, event: eventValues[id])
  }

  private func rowChanged(_ id: Int64) {
    guard plain else { return setNeedsDraw() }
    // Wait for both parts of a row, so that a new row prints once.
    guard let index = ids.firstIndex(of: id), (top..<(top + visibleCount)).contains(index), let row = row(id),
      row.window != .loading, orders[id]?.eventAt == nil || row.event != nil
    else { return }
    let line = row.plainLine
    guard printed[id] != line else { return }
    printed[id] = line
    if !holdsOutput { Terminal.write(line + "\n") }
  }

  // MARK: - Live view

  private func press(_ keys: [Key]) {
    let page = max(1, visibleCount - 1)
    for key in keys {
      switch key {
      case .up: cursor -= 1
      case .down: cursor += 1
      case .pageUp: cursor -= page
      case .pageDown: cursor += page
      case .home: cursor = 0
      case .end: cursor = ids.count - 1
      case .character("p"), .character(" "): togglePause()
      case .character("q"), .character("Q"), .escape:
        ended?.resume()
        ended = nil
        return
      default: continue
      }
      cursor = max(0, min(cursor, ids.count - 1))
    }
    layout()
  }

  private func togglePause() {
    guard ids.indices.contains(cursor), let order = orders[ids[cursor]] else { return }
    do {
      if case .paused = order.window {
        try store.resume(order.id, now: Date())
      } else {
        try store.pause(order.id, now: Date())
      }
      message = nil
      try reload()
    } catch {
      message = "\(error)"
    }
  }

  private func setNeedsDraw() {
    guard !plain, !drawScheduled else { return }
    drawScheduled = true
    Task { @MainActor [weak self] in
      self?.drawScheduled = false
      self?.draw()
    }
  }

  private func draw() {
    guard ended != nil else { return }
    let (columns, rows) = Terminal.size
    let invalid = orders.values.filter { if case .invalid = $0.window { true } else { false } }.count
    var status = "\(ids.count) orders · \(finished.count) finished"
    if invalid > 0 { status += " · \(invalid) invalid" }
    if let lastFinished, let order = orders[lastFinished.id] {
      status += " · last: #\(order.id) \(order.title) at \(lastFinished.at.formatted(date: .omitted, time: .standard))"
    }
    let rule = ANSI.dim + String(repeating: "─", count: columns) + ANSI.reset
    var frame = ANSI.home + ANSI.bold + " Orders" + ANSI.reset + ANSI.dim + "  " + store.path + ANSI.reset
    frame += ANSI.clearToEndOfLine + "\n" + rule + "\n"
    for index in top..<min(top + visibleCount, ids.count) {
      frame +=
        (row(ids[index])?.liveLine(columns: columns, isSelected: index == cursor) ?? "") + ANSI.clearToEndOfLine + "\n"
    }
    frame += ANSI.clearToEndOfScreen
    frame += ANSI.moveTo(row: rows - 2, column: 1) + rule + "\n"
    frame += " " + (message.map { ANSI.colored($0, .red) } ?? status) + ANSI.clearToEndOfLine + "\n"
    frame += ANSI.dim + " ↑↓ move · PgUp/PgDn page · p pause/resume · q quit" + ANSI.reset + ANSI.clearToEndOfLine
    Terminal.write(frame)
  }
}
