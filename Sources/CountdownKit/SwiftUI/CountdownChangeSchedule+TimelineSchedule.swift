// SwiftUI glue, on Apple platforms only. Linux has no SwiftUI, and this package's stand-in module named
// SwiftUI (Tests/AppleStandIns) must never be seen by a library target, so the guard also names the
// platform. Tests/DocumentationTests/AppleGlue holds a copy compiled on Linux against the stand-in, and
// AppleGlueTests checks that the two are the same code.
#if canImport(SwiftUI) && !os(Linux)
  public import Foundation
  public import SwiftUI

  // glue: TimelineSchedule
  extension CountdownChangeSchedule: TimelineSchedule {
    /// The dates from `startDate` on at which the value shown changes: a `TimelineView` with this
    /// schedule redraws exactly then. In `.lowFrequency` mode (a watch's wrist down, the Always-On
    /// display) at most once a minute, and the last change always.
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> Entries {
      entries(from: startDate, minimumInterval: mode == .lowFrequency ? .seconds(60) : nil)
    }
  }
// end glue
#endif
