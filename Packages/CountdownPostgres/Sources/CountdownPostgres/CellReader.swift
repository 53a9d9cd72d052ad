import Foundation
import NIOCore
import PostgresNIO

/// Reads a row's cells in order, straight from their binary values: the columns of a deadline row are
/// of a few fixed types, and postgres-nio's generic decoding looks up generic metadata for every column
/// of every row, which a first load of many rows pays for (Benchmarks/README.md). A cell of another type
/// or format than expected (a table whose columns were altered) is decoded the generic way, and throws
/// what that decoding throws if it cannot be read as the type asked for either.
struct CellReader {
  /// The row has fewer cells than were read.
  struct Mismatch: Error {}

  private var cells: PostgresRow.Iterator

  init(_ row: PostgresRow) {
    cells = row.makeIterator()
  }

  /// The next cell.
  private mutating func next() throws -> PostgresCell {
    guard let cell = cells.next() else { throw Mismatch() }
    return cell
  }

  /// Whether `cell` is binary and of one of `types`: read straight from its bytes.
  private static func isFast(_ cell: PostgresCell, _ types: PostgresDataType...) -> Bool {
    cell.format == .binary && types.contains(cell.dataType)
  }

  /// Passes over the next `count` cells.
  mutating func skip(_ count: Int) {
    for _ in 0..<count { _ = cells.next() }
  }

  mutating func int64() throws -> Int64 {
    let cell = try next()
    if Self.isFast(cell, .int8), var bytes = cell.bytes, bytes.readableBytes == 8,
      let value = bytes.readInteger(as: Int64.self)
    {
      return value
    }
    return try cell.decode(Int64.self)
  }

  mutating func int32() throws -> Int32 {
    let cell = try next()
    if Self.isFast(cell, .int4), var bytes = cell.bytes, bytes.readableBytes == 4,
      let value = bytes.readInteger(as: Int32.self)
    {
      return value
    }
    return try cell.decode(Int32.self)
  }

  mutating func text() throws -> String {
    let cell = try next()
    if Self.isFast(cell, .text, .varchar, .bpchar, .name), let bytes = cell.bytes { return String(buffer: bytes) }
    return try cell.decode(String.self)
  }

  /// A text cell that may be NULL.
  mutating func optionalText() throws -> String? {
    let cell = try next()
    if Self.isFast(cell, .text, .varchar, .bpchar, .name) { return cell.bytes.map { String(buffer: $0) } }
    return try cell.decode(String?.self)
  }

  mutating func date() throws -> Date? {
    let cell = try next()
    if Self.isFast(cell, .timestamptz, .timestamp) {
      guard var bytes = cell.bytes else { return nil }
      if bytes.readableBytes == 8, let microseconds = bytes.readInteger(as: Int64.self) {
        return ChangeNotification.date(microsecondsSince2000: microseconds)
      }
    }
    return try cell.decode(Date?.self)
  }

  mutating func double() throws -> Double? {
    let cell = try next()
    if Self.isFast(cell, .float8) {
      guard var bytes = cell.bytes else { return nil }
      if bytes.readableBytes == 8, let bits = bytes.readInteger(as: UInt64.self) { return Double(bitPattern: bits) }
    }
    return try cell.decode(Double?.self)
  }

  /// The columns of ``DeadlineTable/selectList``, in order.
  mutating func deadlineColumns() throws -> DeadlineRow.Columns {
    (
      try int64(), try text(), try date(), try double(), try date(), try date(), try date(), try date(),
      Int(try int32()), try date()
    )
  }
}
