// swift-format-ignore-file
// The Combine region of CountdownKit.docc's article on following a date that changes, byte for byte:
// keep the two in step (.ci/check-doc-blocks).
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import CountdownCombine
import CountdownKit
import Foundation

@MainActor enum FollowingADateThatChangesCombine {
  static func follow(endDates: AnyPublisher<Date?, Never>, with countdown: FollowingCountdownModel<RoundedDisplay, ContinuousClock>) {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/FollowingADateThatChanges.md
    countdown.follow(endDates)   // a publisher of Date?, from Combine code or an Rx bridge
    // end docs
  }
}
