import Foundation

/// A notification on a table's channel, read from its payload (written by
/// ``DeadlineTable/notifyFunction`` and by followers' heartbeats):
///
/// | payload | meaning |
/// |---|---|
/// | `<xid>` | transaction `xid` changed rows that did not travel in notifications: read them by its id |
/// | `u<xid>.<statement>.<chunk>` and lines `\n<row>` | rows as a statement of `xid` left them |
/// | `d<xid>.<statement>.<chunk>` and lines `\n<id>` | ids a statement of `xid` deleted |
/// | `w<xmin>.<nonce>` | a follower's heartbeat: every transaction below `xmin` was notified ahead of it |
///
/// A row line is `id,ends_at,paused_remaining,event_at,expired_at,lease_until,followed_up_at,discarded_at,attempts,`
/// then the title's length in characters, `:` and the title. Dates are `timestamptz_send` in hex
/// (microseconds since 2000-01-01 UTC as a big-endian 64-bit integer), `paused_remaining` is
/// `float8send` in hex, NULL is empty. Numbers are read from ASCII digits only.
enum ChangeNotification: Sendable, Hashable {
  /// Read the rows and deletions of this transaction from the tables.
  case transaction(UInt64)
  /// A follower's heartbeat with a snapshot's `xmin`, and the nonce that tells the follower its own.
  case marker(UInt64, nonce: UInt64?)
  /// Rows a statement of the transaction wrote, as it left them.
  case upserted(transaction: UInt64, rows: [DeadlineRow])
  /// Ids a statement of the transaction deleted.
  case removed(transaction: UInt64, ids: [Int64])

  /// The notification a payload carries; nil for a payload that is none of the above (another program's
  /// notification on the channel). A row payload whose header names a transaction but whose lines cannot
  /// be read is ``transaction(_:)``: the follower reads that transaction's rows instead.
  init?(payload: String) {
    var payload = payload
    guard let notification = payload.withUTF8({ Self.parse(PayloadScanner($0)) }) else { return nil }
    self = notification
  }

  private static func parse(_ scanner: PayloadScanner) -> ChangeNotification? {
    var scanner = scanner
    switch scanner.peek() {
    case UInt8(ascii: "w"):
      scanner.skip()
      guard let xmin = scanner.unsigned() else { return nil }
      if scanner.isAtEnd { return .marker(xmin, nonce: nil) }
      guard scanner.take(UInt8(ascii: ".")), let nonce = scanner.unsigned(), scanner.isAtEnd else { return nil }
      return .marker(xmin, nonce: nonce)
    case UInt8(ascii: "u"), UInt8(ascii: "d"):
      let isRows = scanner.peek() == UInt8(ascii: "u")
      scanner.skip()
      guard let xid = scanner.unsigned(), scanner.take(UInt8(ascii: ".")), scanner.unsigned() != nil,
        scanner.take(UInt8(ascii: ".")), scanner.unsigned() != nil
      else { return nil }
      if isRows {
        guard let rows = rows(&scanner) else { return .transaction(xid) }
        return .upserted(transaction: xid, rows: rows)
      }
      guard let ids = ids(&scanner) else { return .transaction(xid) }
      return .removed(transaction: xid, ids: ids)
    default:
      guard let xid = scanner.unsigned(), scanner.isAtEnd else { return nil }
      return .transaction(xid)
    }
  }

  private static func ids(_ scanner: inout PayloadScanner) -> [Int64]? {
    var ids: [Int64] = []
    while !scanner.isAtEnd {
      guard scanner.take(UInt8(ascii: "\n")), let id = scanner.signed() else { return nil }
      ids.append(id)
    }
    return ids
  }

  private static func rows(_ scanner: inout PayloadScanner) -> [DeadlineRow]? {
    var rows: [DeadlineRow] = []
    while !scanner.isAtEnd {
      guard scanner.take(UInt8(ascii: "\n")), let row = row(&scanner) else { return nil }
      rows.append(row)
    }
    return rows
  }

  private static func row(_ scanner: inout PayloadScanner) -> DeadlineRow? {
    guard let id = scanner.signed(), scanner.take(UInt8(ascii: ",")) else { return nil }
    var dates: [Date?] = []
    var paused: Double?
    for field in 0..<7 {
      guard let word = scanner.hexWord() else { return nil }
      if field == 1 {
        paused = word.map { Double(bitPattern: $0) }
      } else {
        dates.append(word.map { Self.date(microsecondsSince2000: Int64(bitPattern: $0)) })
      }
      guard scanner.take(UInt8(ascii: ",")) else { return nil }
    }
    guard let attempts = scanner.signed(), let count = Int(exactly: attempts), scanner.take(UInt8(ascii: ",")),
      let length = scanner.unsigned(), let characters = Int(exactly: length), scanner.take(UInt8(ascii: ":")),
      let title = scanner.characters(characters)
    else { return nil }
    return DeadlineRow(
      columns: (id, title, dates[0], paused, dates[1], dates[2], dates[3], dates[4], count, dates[5]))
  }

  /// The date of a `timestamptz` stored as microseconds since 2000-01-01 UTC, computed as postgres-nio
  /// decodes one, so that a row read from a notification equals the same row read by a query.
  static func date(microsecondsSince2000 microseconds: Int64) -> Date {
    Date(timeInterval: Double(microseconds) / 1_000_000, since: postgresEpoch)
  }

  private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)
}

/// Reads a payload's bytes from the front.
private struct PayloadScanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index == bytes.count }

  func peek() -> UInt8? { isAtEnd ? nil : bytes[index] }

  mutating func skip() { index += 1 }

  /// Consumes `byte` if it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  /// ASCII digits (at least one, at most 20) as a UInt64, or nil on overflow or no digit.
  mutating func unsigned() -> UInt64? {
    var value: UInt64 = 0
    let start = index
    while let byte = peek(), (48...57).contains(byte), index - start < 20 {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - 48))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      index += 1
    }
    guard index > start, !(peek().map { (48...57).contains($0) } ?? false) else { return nil }
    return value
  }

  /// An optional `-` and ASCII digits as an Int64, or nil.
  mutating func signed() -> Int64? {
    let negative = take(UInt8(ascii: "-"))
    guard let magnitude = unsigned() else { return nil }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
    }
    return Int64(exactly: magnitude)
  }

  /// Nothing (NULL: `.some(nil)`), or 16 hex digits (`.some(value)`); nil when it is neither.
  mutating func hexWord() -> UInt64?? {
    guard let byte = peek(), byte != UInt8(ascii: ",") else { return .some(nil) }
    guard bytes.count - index >= 16 else { return nil }
    var value: UInt64 = 0
    for _ in 0..<16 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 48...57: digit = byte - 48
      case 97...102: digit = byte - 87
      default: return nil
      }
      value = value << 4 | UInt64(digit)
      index += 1
    }
    return .some(value)
  }

  /// The next `count` Unicode scalars (PostgreSQL counts characters as code points) as a string.
  mutating func characters(_ count: Int) -> String? {
    let start = index
    for _ in 0..<count {
      guard let lead = peek() else { return nil }
      let width =
        switch lead {
        case 0..<0x80: 1
        case 0xC0..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0..<0xF8: 4
        default: 0
        }
      guard width > 0, bytes.count - index >= width else { return nil }
      index += width
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }
}
