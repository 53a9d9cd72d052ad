// swift-format-ignore-file
// The regions below are code of CountdownKit.docc's article on animated rings, byte for byte: keep the
// two in step (.ci/check-doc-blocks). Not in AnimatedRings.swift: a file that imports UIKit must not
// import Testing (its UIKit overlay exists only on Apple platforms); AnimatedRingsUIKitTests.swift runs
// them.
#if os(Linux)
  import CountdownKit
  import UIKit

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
  /// Animates `layer`'s stroke end and colour along `plan`: one pair of animations per segment, each
  /// beginning at its segment's instant on Core Animation's clock.
  @MainActor func animate(_ layer: CAShapeLayer, along plan: RingAnimationPlan<Int, ContinuousClock.Instant>, palette: [UIColor]) {
    layer.removeAllAnimations()
    // The plan's instants are on ContinuousClock, Core Animation's on CACurrentMediaTime(): read both
    // now and carry each instant across as its distance from now.
    let (mediaNow, now) = (CACurrentMediaTime(), ContinuousClock.now)
    for (index, segment) in plan.segments.enumerated() {
      let begin = layer.convertTime(mediaNow + now.duration(to: segment.start) / .seconds(1), from: nil)
      let stroke = CABasicAnimation(keyPath: "strokeEnd")
      stroke.fromValue = segment.fromStrokeEnd
      stroke.toValue = segment.toStrokeEnd
      let color = CABasicAnimation(keyPath: "strokeColor")
      color.fromValue = palette[segment.phase].cgColor
      color.toValue = palette[segment.phase].cgColor
      for animation in [stroke, color] {
        animation.beginTime = begin
        animation.duration = segment.duration / .seconds(1)
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        animation.fillMode = .forwards  // holds its end until the next segment, added later, takes over
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "\(animation.keyPath ?? "").\(index)")
      }
    }
    // What the layer shows once the plan has run out.
    layer.strokeEnd = plan.restingStrokeEnd
    layer.strokeColor = palette[plan.restingPhase].cgColor
  }
  // end docs

  /// A turn's ring in UIKit, animated by Core Animation from each plan the model hands over.
  @MainActor final class TurnRingView: UIView {
    let ringLayer = CAShapeLayer()
    static let palette: [UIColor] = [.systemGreen, .systemGreen, .label, .label, .secondaryLabel, .secondaryLabel, .systemRed, .systemRed]
    var model: RingAnimationModel<PhaseDisplay<Int>, ContinuousClock>?

    func start(on engine: CountdownEngine<ContinuousClock>) {
      let ringLayer = ringLayer
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
      model = RingAnimationModel(
        engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: engine.now), phases: circularTimer,
        ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
      ) { plan in
        animate(ringLayer, along: plan, palette: TurnRingView.palette)
      }
      // end docs
    }
  }

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
  /// Draws `countdown`'s ring for the frame `link` is about to show: call it from the link's callback.
  @MainActor func drawFrame(
    _ link: CADisplayLink, countdown: Countdown<ContinuousClock.Instant>, layer: CAShapeLayer, palette: [UIColor]
  ) {
    // The frame appears at `targetTimestamp` on Core Animation's clock: the same instant on the countdown's.
    let instant = ContinuousClock.now.advanced(by: .seconds(link.targetTimestamp - CACurrentMediaTime()))
    let left = countdown.remaining(at: instant)
    let ring = RingGeometry(progress: countdown.progress(at: instant) ?? 0, diameter: 48, lineWidth: 4, scale: 3)
    CATransaction.begin()
    CATransaction.setDisableActions(true)  // no implicit animation: the frames are the animation
    layer.strokeEnd = ring.strokeEnd
    layer.strokeColor = palette[circularTimer.value(remaining: left)].cgColor
    CATransaction.commit()
    // Paused or finished, nothing moves: stop asking for frames until the countdown changes.
    link.isPaused = countdown.isPaused || left <= .zero
  }
  // end docs

  /// What `animate(_:along:palette:)` added to a fresh layer for an 8-second turn: for the test, which
  /// cannot import UIKit itself.
  @MainActor func animationsOfATurn() -> (keys: [String], strokeEnds: [(Double, Double)], restingStrokeEnd: Double) {
    let layer = CAShapeLayer()
    let now = ContinuousClock.now
    let plan = Countdown(duration: .seconds(8), startingAt: now).ringAnimation(
      phases: circularTimer, ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3), at: now)
    animate(layer, along: plan, palette: TurnRingView.palette)
    let keys = layer.animationKeys() ?? []
    let strokeEnds = (0..<plan.segments.count).compactMap { index -> (Double, Double)? in
      guard let animation = layer.animation(forKey: "strokeEnd.\(index)") as? CABasicAnimation,
        let from = animation.fromValue as? Double, let to = animation.toValue as? Double
      else { return nil }
      return (from, to)
    }
    return (keys, strokeEnds, Double(layer.strokeEnd))
  }
#endif
