import CountdownKit
import Foundation

/// The live order board. The orders are on the engine's boards (``OrderBoards``), filled off the main
/// actor by the source's changes (``OrderSource/changes()``: the first load in pages, then what
/// changed); the controller keeps only the rows on screen, read with their titles a screenful at a
/// time, and binds one slot per visible row. Frames are built by ``BoardFrameBuilder`` and sent by a
/// ``ScreenWriter``; keys are read by ``BoardKeys``. With `plain` it prints a line per change of the
/// first rows instead.
///
/// The first screen is read (a `LIMIT` query) and put on the boards before anything else, so it shows
/// at once, while the rest loads in the background with its progress in the status line.
@MainActor
final class BoardController {
  let store: any OrderSource
  let boards: OrderBoards
  let plain: Bool
  let plainRows: Int

  /// The rows on screen, with their titles, in id order.
  var shown: [Order] = []
  /// The id the screen starts at; nil: at the first row.
  var top: Int64?
  /// The selected order.
  var selectedID: Int64?
  var windowSlots: [CountdownSlot<Int64, OrderBoards.WindowDisplay, ContinuousClock>] = []
  var eventSlots: [CountdownSlot<Int64, OrderBoards.EventDisplay, ContinuousClock>] = []
  var windowValues: [Int64: (value: OrderRow.WindowValue, isPaused: Bool)] = [:]
  var eventValues: [Int64: String] = [:]
  var printed: [Int64: String] = [:]
  /// What the last key did wrong, if anything (sanitized).
  var message: String?
  /// Why the source cannot be read now, if it cannot (sanitized).
  var sourceProblem: String?
  /// The status line's "last finished" text, and the order it is about.
  var lastFinishedText: (id: Int64, text: String)?
  var writer = ScreenWriter()
  private var drawScheduled = false
  /// For `--once`: lines are collected, not printed as they come.
  var holdsOutput = false
  private var ended: CheckedContinuation<Void, Never>?
  private var signals: SignalHandlers?
  private var keys: KeyReader?
  private var following: Task<Void, Never>?
  /// Keeps the handler of finished windows registered while the board runs.
  private var finishing: BoardObservation?

  init(store: any OrderSource, locale: Locale, plain: Bool, plainRows: Int) {
    self.store = store
    self.plain = plain
    self.plainRows = plainRows
    boards = OrderBoards(locale: locale)
  }

  /// Shows the board until `q` (live) or a signal (plain); with `once`, prints the first rows and
  /// returns, having read only those.
  func run(once: Bool = false) async throws {
    if once {
      holdsOutput = true
      try showFirstScreen()
      // Slots render as they are bound; a render that goes through the engine's main-actor hop instead
      // (a loaded machine) is waited for, a little.
      let deadline = ContinuousClock.now.advanced(by: .seconds(5))
      while shown.contains(where: { printed[$0.id] == nil }), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(5))
      }
      return printOnce()
    }
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
    try start()
    await withCheckedContinuation { ended = $0 }
    following?.cancel()
    keys?.cancel()
    Terminal.restore()
  }

  /// Shows the first screen and starts following the source in the background.
  func start() throws {
    try showFirstScreen()
    let (boards, store) = (boards, store)
    following = Task.detached { [weak self] in
      do {
        try await boards.follow(store.changes()) { [weak self] update in await self?.applied(update) }
      } catch {
        await self?.followingFailed(error)
      }
    }
  }

  /// Reads the rows of the first screen and puts them on the boards, so that they show before the first
  /// page of the load arrives.
  private func showFirstScreen() throws {
    finishing = boards.windows.onFinish { [weak self] id in self?.rowFinished(id) }
    // The header's counts change when a window crosses 30 or 5 minutes left, anywhere.
    boards.watchCounts { [weak self] in self?.setNeedsDraw() }
    shown = try store.orders(from: .min, limit: visibleCount)
    selectedID = shown.first?.id
    boards.putFirstScreen(shown.map(OrderTimes.init))
    layout()
  }

  /// `--once`: the first rows, each once both of its parts have been rendered.
  private func printOnce() {
    if shown.isEmpty {
      FileHandle.standardError.write(
        Data(
          """
          No orders in \(store.path). Add one with: countdown board add "Fitting: Ada L." 45m --db \(store.path)
          or fill it with demo orders: countdown board --db \(store.path) --seed 100

          """.utf8))
    }
    for order in shown {
      if let line = printed[order.id] { Terminal.write(line + "\n") }
    }
  }

  /// A change of the source was taken by the boards.
  func applied(_ update: OrderBoards.Update) {
    if let problem = update.problem { sourceProblem = problem }
    if update.isReload || touchesScreen(update.touched) { refreshShown() }
    setNeedsDraw()
  }

  private func followingFailed(_ error: any Error) {
    sourceProblem = TerminalText.sanitized("\(error)")
    setNeedsDraw()
  }

  /// Whether a change of `ids` can change what is on screen: a row shown, or one that falls between
  /// (or, when the screen is not full, after) the rows shown.
  func touchesScreen(_ ids: [Int64]) -> Bool {
    guard !ids.isEmpty else { return false }
    let lower = top ?? .min
    let upper = shown.count < visibleCount ? Int64.max : (shown.last?.id ?? .max)
    return ids.contains { lower <= $0 && $0 <= upper }
  }

  private func enterTerminal() {
    Terminal.enterLiveMode()
    writer.invalidate()
    layout()
  }

  private func resized() {
    writer.invalidate()
    refreshShown()
  }

  private func press(_ keys: [Key]) {
    for key in keys {
      if case .modeReport(2026, let value) = key {
        writer.synchronizedOutput = value == 1 || value == 2
        continue
      }
      switch BoardKeys.action(for: key, page: visibleCount) {
      case .move(let rows)?: move(by: rows)
      case .first?: moveToFirst()
      case .last?: moveToLast()
      case .togglePause?: togglePause()
      case .quit?:
        ended?.resume()
        ended = nil
        return
      case nil: continue
      }
    }
    setNeedsDraw()
  }

  private func togglePause() {
    guard let id = selectedID, let order = shown.first(where: { $0.id == id }) else { return }
    do {
      if case .success(.paused) = order.window {
        try store.resume(order.id, now: Date())
      } else {
        try store.pause(order.id, now: Date())
      }
      message = nil
      // The source reports the edit like any other; the row on screen shows it at once.
      refreshShown()
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

  private func draw() {
    guard ended != nil else { return }
    let (columns, rows) = Terminal.size
    let output = writer.update(to: BoardFrameBuilder.frame(screen, columns: columns, rows: rows))
    if !output.isEmpty { Terminal.write(output) }
  }
}
