import Foundation
import NIOCore
import PostgresNIO

/// Reads a row's cells in order, straight from their binary values: the columns of a deadline row are
/// of a few fixed types, and postgres-nio's generic decoding looks up generic metadata for every column
/// of every row, which a first load of many rows pays for (Benchmarks/README.md). A cell of another type
/// or format than expected (a table whose columns were altered) throws ``Mismatch``, and the caller
/// decodes the row the generic way.
struct CellReader {
  /// A cell that is not of the type this reader reads.
  struct Mismatch: Error {}

  private var cells: PostgresRow.Iterator

  init(_ row: PostgresRow) {
    cells = row.makeIterator()
  }

  /// The next cell's bytes (nil for NULL), checked to be binary and of one of `types`.
  private mutating func next(_ types: PostgresDataType...) throws -> ByteBuffer? {
    guard let cell = cells.next(), cell.format == .binary, types.contains(cell.dataType) else { throw Mismatch() }
    return cell.bytes
  }

  mutating func int64() throws -> Int64 {
    guard var bytes = try next(.int8), bytes.readableBytes == 8, let value = bytes.readInteger(as: Int64.self) else {
      throw Mismatch()
    }
    return value
  }

  mutating func int32() throws -> Int32 {
    guard var bytes = try next(.int4), bytes.readableBytes == 4, let value = bytes.readInteger(as: Int32.self) else {
      throw Mismatch()
    }
    return value
  }

  mutating func text() throws -> String {
    guard let bytes = try next(.text, .varchar, .bpchar, .name) else { throw Mismatch() }
    return String(buffer: bytes)
  }

  mutating func date() throws -> Date? {
    guard var bytes = try next(.timestamptz, .timestamp) else { return nil }
    guard bytes.readableBytes == 8, let microseconds = bytes.readInteger(as: Int64.self) else { throw Mismatch() }
    return ChangeNotification.date(microsecondsSince2000: microseconds)
  }

  mutating func double() throws -> Double? {
    guard var bytes = try next(.float8) else { return nil }
    guard bytes.readableBytes == 8, let bits = bytes.readInteger(as: UInt64.self) else { throw Mismatch() }
    return Double(bitPattern: bits)
  }

  /// The columns of ``DeadlineTable/selectList``, in order.
  mutating func deadlineColumns() throws -> DeadlineRow.Columns {
    (
      try int64(), try text(), try date(), try double(), try date(), try date(), try date(), try date(),
      Int(try int32()), try date()
    )
  }
}
