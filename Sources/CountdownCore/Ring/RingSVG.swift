/// Renders a ``RingGeometry`` as a standalone SVG document: on a server, in snapshot tests, in the docs.
///
/// The document is `diameter × scale` pixels wide and high, with a `viewBox` in points, and draws, in
/// order: the track (a full circle), the progress arc from 12 o'clock to ``RingGeometry/strokeEnd``, an
/// optional dot at ``RingGeometry/dotPosition`` and an optional label centred in the ring.
///
/// ```swift
/// let ring = RingGeometry(progress: 0.75, diameter: 48, lineWidth: 4, scale: 3)
/// let svg = RingSVG(dot: RingSVG.Dot()).render(ring, label: "0:06")
/// ```
///
/// Colours are CSS colour strings (`"#34c759"`, `"red"`, `"rgb(0 0 0 / 0.2)"`) written into attributes
/// as given, XML-escaped. Numbers are printed with at most two decimals in a locale-independent form
/// (`12.5`, never `12,5`), and never as `nan` or `inf`.
public struct RingSVG: Sendable, Hashable {
  /// A dot drawn at the moving end of the arc.
  public struct Dot: Sendable, Hashable {
    /// The radius of the dot in points; `nil` for three quarters of the ring's line width. A negative or
    /// non-finite radius is drawn as 0.
    public var radius: Double?
    /// The fill colour of the dot; `nil` for the progress colour.
    public var color: String?

    /// Creates a dot style.
    public init(radius: Double? = nil, color: String? = nil) {
      self.radius = radius
      self.color = color
    }
  }

  /// The shape of the ends of the progress arc (SVG `stroke-linecap`).
  public enum LineCap: String, Sendable, Hashable, CaseIterable {
    /// Square ends exactly at the arc's endpoints.
    case butt
    /// Round ends reaching half the line width beyond the arc's endpoints.
    case round
    /// Square ends reaching half the line width beyond the arc's endpoints.
    case square
  }

  /// The colour of the full circle behind the progress arc.
  public var trackColor: String
  /// The colour of the progress arc; ``render(_:label:progressColor:)`` can override it per call.
  public var progressColor: String
  /// The shape of the arc's ends.
  public var lineCap: LineCap
  /// The dot at the moving end of the arc, or `nil` for none.
  public var dot: Dot?
  /// The colour of the label text.
  public var labelColor: String
  /// The label's font size in points; `nil` for 30% of the space inside the stroke. A negative or non-finite
  /// size is written as 0.
  public var labelFontSize: Double?
  /// The label's CSS font family list.
  public var fontFamily: String
  /// A colour filling the whole square behind the ring, or `nil` for a transparent background.
  public var backgroundColor: String?

  /// Creates a renderer; every option has a default suited to a light background.
  public init(
    trackColor: String = "#e5e5ea",
    progressColor: String = "#007aff",
    lineCap: LineCap = .round,
    dot: Dot? = nil,
    labelColor: String = "#1c1c1e",
    labelFontSize: Double? = nil,
    fontFamily: String = "system-ui, -apple-system, Helvetica, Arial, sans-serif",
    backgroundColor: String? = nil
  ) {
    self.trackColor = trackColor
    self.progressColor = progressColor
    self.lineCap = lineCap
    self.dot = dot
    self.labelColor = labelColor
    self.labelFontSize = labelFontSize
    self.fontFamily = fontFamily
    self.backgroundColor = backgroundColor
  }

  /// An SVG document drawing `geometry`, with `label` centred in the ring.
  ///
  /// A full ring (``RingGeometry/strokeEnd`` of 1) is drawn as a circle, since an arc whose start equals
  /// its end draws nothing; an empty ring has no arc (the dot, if any, stays at 12 o'clock).
  ///
  /// - Parameters:
  ///   - geometry: The ring to draw.
  ///   - label: Text centred in the ring, XML-escaped; `nil` or empty for none.
  ///   - progressColor: A colour for the arc (and a dot without its own colour) in this call only, e.g. the
  ///     colour of the countdown's current phase; `nil` for ``progressColor``.
  /// - Returns: A complete `<svg>` document, one element per line.
  public func render(_ geometry: RingGeometry, label: String?, progressColor: String? = nil) -> String {
    let color = progressColor ?? self.progressColor
    let side = Self.number(geometry.diameter)
    let pixels = Self.number(min(geometry.diameter * geometry.scale, .greatestFiniteMagnitude))
    var lines = [
      #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(pixels)" height="\#(pixels)" viewBox="0 0 \#(side) \#(side)">"#
    ]
    if let backgroundColor {
      lines.append(Self.element("rect", [("width", side), ("height", side), ("fill", Self.escaped(backgroundColor))]))
    }
    lines.append(circle(geometry, stroke: trackColor))
    if let arc = progressElement(geometry, color: color) {
      lines.append(arc)
    }
    if let dot {
      let radius = dot.radius.map { $0.isFinite ? max($0, 0) : 0 } ?? geometry.lineWidth * 0.75
      let position = geometry.dotPosition
      lines.append(
        Self.element(
          "circle",
          [
            ("cx", Self.number(position.x)), ("cy", Self.number(position.y)), ("r", Self.number(radius)),
            ("fill", Self.escaped(dot.color ?? color)),
          ]))
    }
    if let label, !label.isEmpty {
      lines.append(text(label, geometry))
    }
    lines.append("</svg>")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension RingSVG {
  /// The arc for a partly full ring, a circle for a full one, nothing for an empty one.
  private func progressElement(_ geometry: RingGeometry, color: String) -> String? {
    let strokeEnd = geometry.strokeEnd
    guard strokeEnd > 0 else { return nil }
    let cap = ("stroke-linecap", lineCap.rawValue)
    guard strokeEnd < 1 else { return circle(geometry, stroke: color, extra: [cap]) }
    return Self.element(
      "path",
      [
        ("d", arcPath(geometry)), ("fill", "none"), ("stroke", Self.escaped(color)),
        ("stroke-width", Self.number(geometry.lineWidth)), cap,
      ])
  }

  /// `M start A … end`, split in two arcs at the middle when the sweep exceeds half a turn: every arc is
  /// then at most a half turn, so the large-arc flag is always 0 and a nearly full ring, whose endpoints
  /// almost coincide, is never ambiguous.
  private func arcPath(_ geometry: RingGeometry) -> String {
    func coordinates(_ point: RingGeometry.Point) -> String {
      "\(Self.number(point.x)) \(Self.number(point.y))"
    }
    let radius = Self.number(geometry.radius)
    // SVG's sweep flag 1 turns towards growing angles: clockwise, since y grows downwards.
    let arc = "A \(radius) \(radius) 0 0 \(geometry.isClockwise ? 1 : 0) "
    var path = "M " + coordinates(geometry.point(atAngle: geometry.startAngle))
    if geometry.sweep > Double.pi {
      path += " " + arc + coordinates(geometry.point(atAngle: (geometry.startAngle + geometry.endAngle) / 2))
    }
    return path + " " + arc + coordinates(geometry.dotPosition)
  }

  private func circle(_ geometry: RingGeometry, stroke: String, extra: [(String, String)] = []) -> String {
    let center = geometry.center
    return Self.element(
      "circle",
      [
        ("cx", Self.number(center.x)), ("cy", Self.number(center.y)), ("r", Self.number(geometry.radius)),
        ("fill", "none"), ("stroke", Self.escaped(stroke)), ("stroke-width", Self.number(geometry.lineWidth)),
      ] + extra)
  }

  private func text(_ label: String, _ geometry: RingGeometry) -> String {
    let center = geometry.center
    let fontSize =
      labelFontSize.map { $0.isFinite ? max($0, 0) : 0 } ?? max(geometry.diameter - 2 * geometry.lineWidth, 0) * 0.3
    let attributes = Self.attributes([
      ("x", Self.number(center.x)), ("y", Self.number(center.y)),
      ("text-anchor", "middle"), ("dominant-baseline", "central"),
      ("font-family", Self.escaped(fontFamily)), ("font-size", Self.number(fontSize)),
      ("fill", Self.escaped(labelColor)),
    ])
    return "<text \(attributes)>\(Self.escaped(label))</text>"
  }

  /// A self-closing element with `attributes` in the order given; values must already be escaped.
  private static func element(_ name: String, _ attributes: [(String, String)]) -> String {
    "<\(name) \(Self.attributes(attributes))/>"
  }

  private static func attributes(_ pairs: [(String, String)]) -> String {
    pairs.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: " ")
  }
}
