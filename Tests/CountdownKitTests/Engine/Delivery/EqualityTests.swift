import CountdownCore
@testable import CountdownKit
import Testing

/// How the engine decides that two displays are the same (and share a display class): `==` when the
/// display's type is `Equatable`, never otherwise.
@Suite struct EqualityTests {
  struct Plain {
    var name: String
  }

  @Test func equatableValuesCompareWithTheirOwnEquality() {
    #expect(Equality.areEqual(RoundedDisplay.seconds, RoundedDisplay.seconds))
    #expect(!Equality.areEqual(RoundedDisplay.seconds, RoundedDisplay.minutes))
    // A value holding a reference (the string's storage), compared as itself, not as its bytes.
    let long = String(repeating: "countdown ", count: 8)
    #expect(Equality.areEqual(long, String(repeating: "countdown ", count: 8)))
    #expect(!Equality.areEqual(long, long + "!"))
  }

  @Test func valuesOfATypeThatIsNotEquatableAreNeverEqual() {
    #expect(!Equality.areEqual(Plain(name: "ring"), Plain(name: "ring")))
  }
}
