// A copy of Sources/CountdownKit/SwiftUI/CountdownChangeSchedule+TimelineSchedule.swift, compiled on
// Linux against the SwiftUI stand-in (the library's file is compiled on Apple platforms only).
// AppleGlueTests checks that the code between the glue markers is the same in both.
#if os(Linux)
  public import CountdownKit
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
