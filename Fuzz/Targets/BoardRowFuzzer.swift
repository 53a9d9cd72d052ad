// libFuzzer target: decoding a board row from arbitrary column values (Examples/countdown/Input).
// A row decodes or is refused only for want of an integer id; whatever decodes is safe to show and
// in range. Built and run by Fuzz/run.
import CountdownKit
import Foundation

/// libFuzzer's entry point: checks one input; a broken invariant stops the process.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoardRow(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: data, count: size))
  let columns = Order.Columns(
    id: input.columnValue(), title: input.columnValue(), windowEnd: input.columnValue(),
    pausedRemaining: input.columnValue(), eventAt: input.columnValue())
  for value in [columns.id, columns.title, columns.windowEnd, columns.pausedRemaining, columns.eventAt] {
    require(TerminalText.isSafe(value.description), "unsafe description \(value.description.debugDescription)")
  }
  // The in-place reader of text dates (the board's first load) agrees with the general one.
  if case .text(let text) = columns.windowEnd {
    var bytes = text
    let inPlace = bytes.withUTF8 { Order.date(utf8: UnsafeRawBufferPointer($0)) }
    require(inPlace == Order.date(columns.windowEnd), "date(utf8:) differs for \(text.debugDescription)")
  }
  guard let order = Order(columns: columns) else {
    if case .integer = columns.id { fail("a row with an integer id was refused") }
    return 0
  }
  require(TerminalText.isSafe(order.title), "unsafe title \(order.title.debugDescription)")
  switch order.window {
  case .success(.until(let end)):
    require(Deadline.plausibleDates.contains(end), "implausible end \(end)")
  case .success(.paused(let remaining)):
    require(
      remaining >= .zero && remaining <= .seconds(Deadline.longestPausedSeconds + 1), "remaining \(remaining)")
  case .success(.after(let remaining)):
    fail("a stored row counts a duration: \(remaining)")
  case .failure(let problem):
    let text = problem.description
    require(TerminalText.isSafe(text) && !text.isEmpty, "unsafe problem \(text.debugDescription)")
  }
  if let event = order.eventAt { require(Deadline.isPlausible(event), "implausible event \(event)") }
  return 0
}

extension FuzzInput {
  /// A column value: the tag picks the kind, mostly text (the interesting one).
  mutating func columnValue() -> ColumnValue {
    switch byte() % 8 {
    case 0: return .null
    case 1: return .integer(int64())
    case 2: return .real(double())
    case 3: return .blob(chunk(maximum: 16))
    default: return .text(String(decoding: chunk(maximum: 64), as: UTF8.self))
    }
  }
}

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fail(message()) }
}

private func fail(_ message: String) -> Never {
  fatalError("Invariant broken: \(message)")
}
