// A Swift 6.3.1 optimizer bug that broke every terminal the release `countdown` ran in.
//
//   swiftc -O Reproducers/OptionalTupleInMutex.swift -o /tmp/optional-in-mutex && /tmp/optional-in-mutex
//
// prints 0 (expected 15); -Onone prints 15. An Optional of a large trivial value (here 64 bytes; a
// `termios` is 60) stored in a struct with another field, inside a `Mutex` held in a static, and
// set with `if state.saved == nil { state.saved = value }` inside `withLock`, reads back all zero.
// `Terminal` therefore keeps its saved settings as a plain value with a separate flag (see
// Examples/countdown/Terminal/Terminal.swift); the pty tests run the release binary to catch it.
// Not part of any target: compile it by hand, as above.
import Synchronization

typealias Big = (Int, Int, Int, Int, Int, Int, Int, Int)
struct State { var saved: Big?; var flag = false }
enum Saved {
  static let state = Mutex(State())
  @inline(never) static func fill(_ value: inout Big) { value.7 = 15 }
  static func save() {
    state.withLock { state in
      var value: Big = (0, 0, 0, 0, 0, 0, 0, 0)
      fill(&value)
      if state.saved == nil { state.saved = value }
    }
  }
}

Saved.save()
print(Saved.state.withLock { $0.saved?.7 } ?? -1, "(expected 15)")
