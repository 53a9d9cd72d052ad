// swift-format-ignore-file
// The region below is the complete ring timer of CountdownKit.docc's article on animated rings (and of the
// README), byte for byte: keep them in step (.ci/check-doc-blocks). AnimatedRingsSwiftUITests runs its
// model and evaluates the view's body against the stand-ins.
#if os(Linux)
  import CountdownKit
  import QuartzCore
  import SwiftUI

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
  /// Starts an 8-second turn on `engine`; its ring's plans come on Core Animation's clock.
  @MainActor func startTurn(on engine: CountdownEngine<ContinuousClock>) -> RingAnimationModel<PhaseDisplay<Int>, ContinuousClock> {
    RingAnimationModel(
      engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: engine.now), phases: circularTimer,
      ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4), mediaClock: MediaClock(seconds: CACurrentMediaTime))
  }

  /// The turn's ring, emptying through eight colours with a dot at its moving end, and a button that
  /// pauses and resumes it.
  struct RingTimer: View {
    static let palette: [Color] = [.green, .green, .blue, .blue, .yellow, .yellow, .orange, .red]
    let model: RingAnimationModel<PhaseDisplay<Int>, ContinuousClock>
    @Environment(\.displayScale) private var displayScale
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
      VStack {
        // Redrawn every frame while the ring moves, not at all while it rests; the app is not called.
        TimelineView(.animation(paused: !model.isMoving)) { context in
          let plan = model.mediaPlan
          let now = model.mediaClock.now.advanced(by: .seconds(context.date.timeIntervalSinceNow))
          let ring = plan.ring(at: now)
          let colour = Self.palette[plan.phase(at: now)]
          ZStack {
            Circle()
              .inset(by: ring.lineWidth / 2)
              .trim(from: 0, to: ring.strokeEnd)
              .stroke(colour, style: StrokeStyle(lineWidth: ring.lineWidth, lineCap: .round))
              .rotationEffect(.degrees(-90))
            Circle()  // the dot, at the arc's moving end
              .foregroundStyle(colour)
              .frame(width: 2 * ring.lineWidth, height: 2 * ring.lineWidth)
              .position(x: ring.dotPosition.x, y: ring.dotPosition.y)
          }
          .frame(width: ring.diameter, height: ring.diameter)
        }
        Button(model.isPaused ? "Resume" : "Pause") {
          if model.isPaused { model.handle.resume() } else { model.handle.pause() }
        }
      }
      // The ring's pixels are those of the screen it is on.
      .onChange(of: displayScale, initial: true) {
        model.ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: displayScale)
      }
      // Core Animation's clock stood still while the device slept: carry the plan across again.
      .onChange(of: scenePhase) {
        if scenePhase == .active { model.checkMediaClock() }
      }
    }
  }
  // end docs
#endif
