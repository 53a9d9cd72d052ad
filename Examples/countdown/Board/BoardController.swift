import CountdownInput
import CountdownKit
import Foundation

/// The live order board: every order on a `CountdownBoard`, only the visible rows bound to slots,
/// edits from other processes picked up within a quarter of a second (``BoardFollower``), frames
/// built by ``BoardFrameBuilder`` and sent by a ``ScreenWriter``, keys read by ``BoardKeys``.
/// With `plain` it prints a line per change of the first rows instead.
@MainActor
final class BoardController {
  typealias WindowDisplay = CombinedDisplay<
    CombinedDisplay<MappedDisplay<OffsetDisplay<TimeDisplay>, String>, PhaseDisplay<Urgency>>, ProgressDisplay
  >
  typealias EventDisplay = MappedDisplay<OffsetDisplay<TimeDisplay>, String>

  let store: any OrderSource
  let engine: Engine
  let windows: CountdownBoard<Int64, WindowDisplay, ContinuousClock>
  let events: CountdownBoard<Int64, EventDisplay, ContinuousClock>
  let plain: Bool
  let plainRows: Int
  let locale: Locale
  let follower: BoardFollower

  var orders: [Int64: Order] = [:]
  var ids: [Int64] = []
  var top = 0
  var cursor = 0
  var windowSlots: [CountdownSlot<Int64, WindowDisplay, ContinuousClock>] = []
  var eventSlots: [CountdownSlot<Int64, EventDisplay, ContinuousClock>] = []
  var windowValues: [Int64: (value: OrderRow.WindowValue, isPaused: Bool)] = [:]
  var eventValues: [Int64: String] = [:]
  var printed: [Int64: String] = [:]
  var finished: Set<Int64> = []
  var lastFinished: (id: Int64, at: Date)?
  var unreadable = 0
  var message: String?
  var writer = ScreenWriter()
  private var drawScheduled = false
  /// For `--once`: lines are collected, not printed as they come.
  var holdsOutput = false
  private var ended: CheckedContinuation<Void, Never>?
  private var signals: SignalHandlers?
  private var keys: KeyReader?

  init(store: any OrderSource, engine: Engine, locale: Locale, plain: Bool, plainRows: Int) {
    self.store = store
    self.engine = engine
    self.plain = plain
    self.plainRows = plainRows
    self.locale = locale
    follower = BoardFollower(store: store)
    let text = TimeDisplay.text(.coarse, locale: locale)
    windows = engine.board(
      of: Int64.self,
      display: text.combined(with: OrderRow.phases).combined(with: .progress(steps: 4, total: Order.windowLength)))
    events = engine.board(of: Int64.self, display: TimeDisplay.text(.digital, locale: locale))
  }

  /// Shows the board until `q` (live) or a signal (plain); with `once`, prints the rows and returns.
  func run(once: Bool = false) async throws {
    windows.onFinish { [weak self] id in self?.rowFinished(id) }
    apply(try follower.read())
    if once { return printOnce() }
    if plain {
      signals = SignalHandlers(live: false)
    } else {
      signals = SignalHandlers(
        live: true,
        onContinue: { [weak self] in self?.enterTerminal() },
        onResize: { [weak self] in self?.resized() })
      enterTerminal()
      Terminal.querySynchronizedOutput()
      keys = KeyReader { [weak self] keys in self?.press(keys) }
    }
    layout()
    follower.start(
      onChange: { [weak self] listing in
        self?.message = nil
        self?.apply(listing)
        self?.layout()
      },
      onError: { [weak self] message in
        self?.message = message
        self?.setNeedsDraw()
      })
    await withCheckedContinuation { ended = $0 }
    follower.stop()
    keys?.cancel()
    Terminal.restore()
  }

  /// `--once`: the first rows, each once both of its parts have been rendered.
  private func printOnce() {
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
  }

  private func enterTerminal() {
    Terminal.enterLiveMode()
    writer.invalidate()
    layout()
  }

  private func resized() {
    writer.invalidate()
    layout()
  }

  private func press(_ keys: [Key]) {
    for key in keys {
      if case .modeReport(2026, let value) = key {
        writer.synchronizedOutput = value == 1 || value == 2
        continue
      }
      switch BoardKeys.action(for: key, selected: cursor, count: ids.count, page: visibleCount) {
      case .select(let index)?: cursor = index
      case .togglePause?: togglePause()
      case .quit?:
        ended?.resume()
        ended = nil
        return
      case nil: continue
      }
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
      apply(try follower.read())
    } catch {
      message = TerminalText.sanitized("\(error)")
    }
  }

  func setNeedsDraw() {
    guard !plain, !drawScheduled else { return }
    drawScheduled = true
    Task { @MainActor [weak self] in
      self?.drawScheduled = false
      self?.draw()
    }
  }

  /// What the board shows now.
  var screen: BoardScreen {
    let visible = ids[top..<min(top + visibleCount, ids.count)]
    return BoardScreen(
      path: store.path, rows: visible.compactMap(row), selected: ids.isEmpty ? nil : cursor - top,
      orderCount: ids.count, finishedCount: finished.count,
      invalidCount: orders.values.filter(\.isInvalid).count, unreadableCount: unreadable,
      lastFinished: lastFinished.flatMap { last in
        orders[last.id].map { "#\($0.id) \($0.title) at \(last.at.formatted(date: .omitted, time: .standard))" }
      },
      message: message, connection: store.connectionStatus)
  }

  private func draw() {
    guard ended != nil else { return }
    let (columns, rows) = Terminal.size
    let output = writer.update(to: BoardFrameBuilder.frame(screen, columns: columns, rows: rows))
    if !output.isEmpty { Terminal.write(output) }
  }
}
