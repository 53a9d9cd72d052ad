import Foundation

/// The geometry of a progress ring that empties as a countdown runs out.
///
/// A ring is a circular stroke centred in a square of side ``diameter`` points. The stroke starts at
/// 12 o'clock and covers the fraction of the countdown that is *left*: a full ring at the start, an empty
/// ring when time is up.
///
/// ## Coordinate system
///
/// The same as UIKit, SwiftUI, Core Animation layers on iOS and SVG: the origin is the top-left corner of
/// the square, `x` grows to the right and `y` grows **downwards**. Angles are `Double` radians measured
/// from the positive `x` axis (3 o'clock); because `y` points down, a growing angle turns **clockwise**
/// on screen. 12 o'clock is therefore `-π / 2`, 3 o'clock `0`, 6 o'clock `π / 2`.
///
/// ## Resolution
///
/// A stroke of circumference `c` pixels can only show `c` distinct positions of its moving end, so the
/// geometry quantizes progress to ``visibleSteps`` steps. ``strokeEnd``, ``sweep``, ``endAngle`` and
/// ``dotPosition`` are all derived from the quantized value, so a drawn arc, its dot and a SwiftUI
/// `Circle().trim(from: 0, to: strokeEnd)` agree exactly, and none of them changes until the ring
/// visibly moves.
///
/// ## Bad input
///
/// Every input is sanitized in ``init(progress:diameter:lineWidth:scale:clockwise:)``; no input traps,
/// and every output is finite:
/// - a NaN or infinite `progress` is treated as `0` (an empty ring); any other value is clamped to `0...1`;
/// - a `diameter` that is not a finite positive number is treated as `0` (a ring of radius 0);
/// - a `lineWidth` that is NaN, infinite or negative is treated as `0`; one wider than the diameter is
///   clamped to the diameter (the stroke then fills the square and ``radius`` is `0`);
/// - a `scale` that is not a finite positive number is treated as `1`.
public struct RingGeometry: Sendable, Hashable {
  /// A point in the ring's coordinate system (points, `y` growing downwards).
  public struct Point: Sendable, Hashable {
    /// The horizontal coordinate, growing to the right.
    public var x: Double
    /// The vertical coordinate, growing downwards.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }
  }

  /// The largest value of ``visibleSteps``: a million pixels of circumference is beyond any screen, and
  /// the cap keeps the step count a small exact integer whatever the inputs.
  public static let maximumVisibleSteps = 1_000_000

  /// The fraction of the countdown left, after sanitizing: in `0...1`, `1` for a full ring.
  public let progress: Double
  /// The side of the square the ring sits in, in points, after sanitizing: finite and `>= 0`.
  public let diameter: Double
  /// The width of the stroke in points, after sanitizing: in `0...diameter`.
  public let lineWidth: Double
  /// Pixels per point, after sanitizing: finite and `> 0`.
  public let scale: Double
  /// Whether the ring is drawn clockwise from 12 o'clock (the stroke end moves anticlockwise as it empties).
  public let isClockwise: Bool

  /// Creates the geometry of a ring; invalid inputs are clamped as described in the type's documentation.
  ///
  /// - Parameters:
  ///   - progress: The fraction of the countdown left: `1` draws a full ring, `0` an empty one.
  ///   - diameter: The outer size of the square the ring sits in, in points.
  ///   - lineWidth: The width of the stroke, in points. The stroke lies entirely inside the square.
  ///   - scale: Pixels per point (`UIScreen.scale`, SwiftUI's `displayScale`); it sets ``visibleSteps``.
  ///   - clockwise: Whether the arc runs clockwise from 12 o'clock, as on a clock face.
  public init(progress: Double, diameter: Double, lineWidth: Double, scale: Double = 1, clockwise: Bool = true) {
    self.progress = progress.isFinite ? min(max(progress, 0), 1) : 0
    let diameter = Self.sanitizedDiameter(diameter)
    self.diameter = diameter
    self.lineWidth = Self.sanitizedLineWidth(lineWidth, diameter: diameter)
    self.scale = Self.sanitizedScale(scale)
    self.isClockwise = clockwise
  }

  /// The centre of the ring: the middle of the square.
  public var center: Point {
    Point(x: diameter / 2, y: diameter / 2)
  }

  /// The radius to the middle of the stroke, `(diameter - lineWidth) / 2`, never negative.
  public var radius: Double {
    (diameter - lineWidth) / 2
  }

  /// The angle where the arc starts: 12 o'clock, `-π / 2`.
  public var startAngle: Double {
    -Double.pi / 2
  }

  /// The length of the arc as an angle in radians, `2π · strokeEnd`: never negative, whatever the direction.
  public var sweep: Double {
    2 * Double.pi * strokeEnd
  }

  /// The angle of the moving end of the arc: ``startAngle`` plus ``sweep`` when clockwise, minus it otherwise.
  public var endAngle: Double {
    isClockwise ? startAngle + sweep : startAngle - sweep
  }

  /// How many distinguishable positions the end of the stroke has: its circumference in pixels,
  /// `2π · radius · scale`, rounded up, at least 1 and at most ``maximumVisibleSteps``.
  ///
  /// This is the number of steps a progress display driving this ring needs: updating it more often
  /// moves the stroke by less than a pixel. A 48-point ring with a 4-point stroke on a 3× screen has 415.
  public var visibleSteps: Int {
    Self.steps(radius: radius, scale: scale)
  }

  /// ``progress`` rounded to the ring's visible resolution: the value for SwiftUI's
  /// `trim(from: 0, to: strokeEnd)` or `CAShapeLayer.strokeEnd`.
  ///
  /// Progress is rounded to the nearest multiple of `1 / visibleSteps`, with two exceptions so that the
  /// ring never lies about the countdown: while any time is left (`progress > 0`) the value is at least
  /// one step, so a nearly empty ring still shows; and once the countdown has started (`progress < 1`) it
  /// is at most one step short of `1`, so a started ring has visibly moved. `0` and `1` map to themselves.
  /// A ring with a single visible step cannot honour both rules on its grid; it returns `progress` itself.
  /// The result is always within `1 / visibleSteps` of ``progress``.
  public var strokeEnd: Double {
    guard progress > 0, progress < 1 else { return progress }
    let steps = visibleSteps
    guard steps > 1 else { return progress }
    let count = Double(steps)
    let step = (progress * count).rounded(.toNearestOrAwayFromZero)
    return min(max(step, 1), count - 1) / count
  }

  /// The moving end of the arc, on the circle of ``radius`` around ``center``: where a dot or knob is drawn.
  ///
  /// At 12 o'clock for a full or an empty ring.
  public var dotPosition: Point {
    point(atAngle: endAngle)
  }

  /// The point at `angle` radians on the circle of ``radius`` around ``center``.
  package func point(atAngle angle: Double) -> Point {
    Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
  }

  /// The number of distinguishable positions of a ring's stroke end (see ``visibleSteps``), without a
  /// progress: what to pass to a progress display that drives a ring of this size.
  ///
  /// Inputs are sanitized exactly as by ``init(progress:diameter:lineWidth:scale:clockwise:)``.
  public static func visibleSteps(diameter: Double, lineWidth: Double, scale: Double = 1) -> Int {
    RingGeometry(progress: 0, diameter: diameter, lineWidth: lineWidth, scale: scale).visibleSteps
  }
}

extension RingGeometry {
  private static func sanitizedDiameter(_ diameter: Double) -> Double {
    diameter.isFinite && diameter > 0 ? diameter : 0
  }

  private static func sanitizedLineWidth(_ lineWidth: Double, diameter: Double) -> Double {
    guard lineWidth.isFinite, lineWidth > 0 else { return 0 }
    return min(lineWidth, diameter)
  }

  private static func sanitizedScale(_ scale: Double) -> Double {
    scale.isFinite && scale > 0 ? scale : 1
  }

  /// `ceil(2π · radius · scale)` clamped to `1...maximumVisibleSteps`; an infinite product (a huge radius
  /// times a huge scale) clamps to the maximum, and the conversion to `Int` never traps.
  private static func steps(radius: Double, scale: Double) -> Int {
    let pixels = (2 * Double.pi * radius * scale).rounded(.up)
    guard pixels < Double(maximumVisibleSteps) else { return maximumVisibleSteps }
    return max(1, Int(pixels))
  }
}
