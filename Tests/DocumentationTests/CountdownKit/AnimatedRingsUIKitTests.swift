#if os(Linux)
  import Testing

  /// Runs the Core Animation example of the animated rings article against the stand-ins.
  @MainActor @Suite struct AnimatedRingsUIKitTests {
    @Test func oneStrokeAndOneColourAnimationPerSegment() {
      let added = animationsOfATurn()
      #expect(added.keys.count == 16)
      #expect(added.strokeEnds.count == 8)
      #expect(added.strokeEnds.first.map { $0 == (1, 0.875) } == true)
      #expect(added.strokeEnds.last.map { $0 == (0.125, 0) } == true)
      #expect(added.restingStrokeEnd == 0)
    }
  }
#endif
