// swift-format-ignore-file
// The regions below are the UIKit and SwiftUI code of CountdownKit.docc's Getting Started and landing
// page, byte for byte: keep them in step (.ci/check-doc-blocks). No Testing here: its UIKit overlay is
// Apple-only.
#if os(Linux)
  import CountdownKit
  import SwiftUI
  import UIKit

  /// Getting Started: an engine, a countdown, a display, and the handle's controls.
  @MainActor func gettingStarted(timeLabel: UILabel, showTimeUp: @escaping @MainActor @Sendable () -> Void) {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
    let engine = CountdownEngine()
    // end docs

    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
    let turn = Countdown(duration: .seconds(8), startingAt: engine.now)

    let handle = engine.add(turn, display: .seconds) { snapshot in
      timeLabel.text = snapshot.value.formatted(.countdown(.digital))   // "00:08", "00:07", …
    } onFinish: {
      showTimeUp()
    }
    // end docs

    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
    handle.pause()                              // the remaining time freezes
    handle.resume()                             // and runs again from there
    handle.extend(by: .seconds(30))             // 30 s more (negative: less)
    handle.retarget(to: engine.now + .seconds(5))
    handle.cancel()                             // no more updates, no completion
    // end docs
  }

  /// Getting Started: a countdown to a date.
  @MainActor func countdownToADate(
    order: Order, engine: CountdownEngine<ContinuousClock>, timeLabel: UILabel
  ) throws -> CountdownHandle<ContinuousClock> {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
    let handle = try engine.add(until: order.fittingEndsAt, display: .adaptive) { snapshot in
      timeLabel.text = snapshot.value.formatted(.countdown(.coarse))
    }
    // end docs
    return handle
  }

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
  struct TurnTimer: View {
    @State private var turn: CountdownModel<RoundedDisplay, ContinuousClock>

    init(engine: CountdownEngine<ContinuousClock>) {
      let countdown = Countdown(duration: .seconds(8), startingAt: engine.now)
      _turn = State(initialValue: CountdownModel(engine: engine, countdown: countdown, display: .seconds))
    }

    var body: some View {
      VStack {
        if let left = turn.value {
          Text(left, format: .countdown(.digital))
        }
        Button(turn.isPaused ? "Resume" : "Pause") {
          if turn.isPaused { turn.handle.resume() } else { turn.handle.pause() }
        }
      }
    }
  }
  // end docs

  /// The landing page's example.
  @MainActor func kitOverview(label: UILabel) -> CountdownHandle<ContinuousClock> {
    // docs: Sources/CountdownKit/CountdownKit.docc/CountdownKit.md
    let engine = CountdownEngine()
    let handle = engine.add(Countdown(duration: .seconds(90), startingAt: engine.now), display: .seconds) { snapshot in
      label.text = snapshot.value.formatted(.countdown(.digital))
    }
    // end docs
    return handle
  }
#endif
