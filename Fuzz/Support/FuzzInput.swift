// Reading structured values out of a fuzzer's bytes. Compiled into every fuzz target (Fuzz/run).

/// The fuzzer's input, read front to back; reads past the end give zeros.
struct FuzzInput {
  private var bytes: ArraySlice<UInt8>

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = Array(bytes)[...]
  }

  /// Whether everything has been read.
  var isEmpty: Bool { bytes.isEmpty }

  /// The bytes not read yet.
  var rest: [UInt8] { Array(bytes) }

  mutating func byte() -> UInt8 {
    bytes.popFirst() ?? 0
  }

  mutating func uint64() -> UInt64 {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
    return value
  }

  mutating func int64() -> Int64 {
    Int64(bitPattern: uint64())
  }

  /// Any `Double`, NaN and infinities included.
  mutating func double() -> Double {
    Double(bitPattern: uint64())
  }

  /// A chunk of at most `maximum` bytes (its length is the next byte).
  mutating func chunk(maximum: Int = 255) -> [UInt8] {
    let count = min(Int(byte()), maximum, bytes.count)
    defer { bytes = bytes.dropFirst(count) }
    return Array(bytes.prefix(count))
  }

  /// A duration from one of several families, so that boundaries get hit: whole seconds, whole
  /// milliseconds, a second plus a few attoseconds, and anything within `±limitSeconds`.
  mutating func duration(limitSeconds: Int64) -> Duration {
    let limit = UInt64(limitSeconds)
    let sign: Int64 = byte() & 1 == 0 ? 1 : -1
    switch byte() % 5 {
    case 0:
      return .seconds(sign * Int64(uint64() % 1_000))
    case 1:
      return .milliseconds(sign * Int64(uint64() % 10_000_000))
    case 2:
      return .seconds(sign * Int64(uint64() % 100_000))
        + Duration(
          secondsComponent: 0, attosecondsComponent: sign * Int64(byte() % 3))
    case 3:
      return .seconds(sign * Int64(uint64() % (limit + 1)))
    default:
      let seconds = Int64(uint64() % (limit + 1)) * sign
      let attoseconds = Int64(uint64() % 1_000_000_000_000_000_000) * sign
      return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }
  }
}
