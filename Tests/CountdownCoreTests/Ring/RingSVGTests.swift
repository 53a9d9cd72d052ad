import CountdownCore
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct RingSVGTests {
  static let hostileLabel = #"<script>&"'"#

  @Test func fullRingIsTwoCirclesAndNoArc() throws {
    let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
    let document = try SVGDocument(RingSVG().render(ring, label: "0:08"))
    #expect(document.root.name == "svg")
    #expect(document.root["width"] == "144" && document.root["height"] == "144")
    #expect(document.root["viewBox"] == "0 0 48 48")
    #expect(document.elements("path").isEmpty)
    let circles = document.elements("circle")
    #expect(circles.map { $0["stroke"] } == ["#e5e5ea", "#007aff"])
    #expect(circles.allSatisfy { $0["cx"] == "24" && $0["cy"] == "24" && $0["r"] == "22" })
    #expect(document.elements("text").map(\.text) == ["0:08"])
  }

  @Test func emptyRingIsTheTrackAlone() throws {
    let ring = RingGeometry(progress: 0, diameter: 48, lineWidth: 4)
    let document = try SVGDocument(RingSVG().render(ring, label: nil))
    #expect(document.elements("circle").count == 1)
    #expect(document.elements("path").isEmpty)
    #expect(document.elements("text").isEmpty)
  }

  @Test(arguments: [
    (0.25, true, "M 42 2 A 40 40 0 0 1 82 42"),
    (0.25, false, "M 42 2 A 40 40 0 0 0 2 42"),
    (0.5, true, "M 42 2 A 40 40 0 0 1 42 82"),
    (0.75, true, "M 42 2 A 40 40 0 0 1 70.28 70.28 A 40 40 0 0 1 2 42"),
    (0.75, false, "M 42 2 A 40 40 0 0 0 13.72 70.28 A 40 40 0 0 0 82 42"),
  ])
  func partialRingIsAnArcToTheDot(progress: Double, clockwise: Bool, path: String) throws {
    // Radius 40 at 1×: 252 visible steps, a multiple of 4, so quarters are exact. Beyond half a turn the arc
    // is split at its middle (40 · sin(π/4) = 28.28 from the centre).
    let ring = RingGeometry(progress: progress, diameter: 84, lineWidth: 4, clockwise: clockwise)
    #expect(ring.visibleSteps == 252)
    let document = try SVGDocument(RingSVG(dot: .init(radius: 3)).render(ring, label: nil))
    let paths = document.elements("path")
    try #require(paths.count == 1)
    #expect(paths[0]["stroke-linecap"] == "round")
    #expect(paths[0]["fill"] == "none")
    #expect(paths[0]["stroke-width"] == "4")
    let dots = document.elements("circle").filter { $0["fill"] != "none" }
    try #require(dots.count == 1)
    #expect(dots[0]["r"] == "3")
    #expect(paths[0]["d"]?.hasSuffix("\(dots[0]["cx"] ?? "?") \(dots[0]["cy"] ?? "?")") == true)
    #expect(paths[0]["d"] == path)
  }

  @Test func phaseColourOverridesTheArcAndAnUncolouredDot() throws {
    let ring = RingGeometry(progress: 0.4, diameter: 48, lineWidth: 4)
    let svg = RingSVG(dot: .init()).render(ring, label: nil, progressColor: "#ff3b30")
    let document = try SVGDocument(svg)
    #expect(document.elements("path").map { $0["stroke"] } == ["#ff3b30"])
    #expect(document.elements("circle").map { $0["stroke"] ?? $0["fill"] } == ["#e5e5ea", "#ff3b30"])
    #expect(document.elements("circle").last?["r"] == "3")
  }

  @Test func hostileStringsAreEscaped() throws {
    let style = RingSVG(
      trackColor: #"red" onload="alert(1)"#, labelColor: "<b>", fontFamily: "'Avenir' & \"Menlo\"",
      backgroundColor: "white'/><script/>")
    let ring = RingGeometry(progress: 0.5, diameter: 48, lineWidth: 4)
    let svg = style.render(ring, label: Self.hostileLabel)
    #expect(!svg.contains("<script"))
    #expect(svg.contains("&lt;script&gt;&amp;&quot;&apos;</text>"))
    let document = try SVGDocument(svg)
    #expect(document.elements("text").map(\.text) == [Self.hostileLabel])
    #expect(document.elements("text").first?["font-family"] == "'Avenir' & \"Menlo\"")
    #expect(document.elements("circle").first?["stroke"] == #"red" onload="alert(1)"#)
    #expect(document.elements("circle").first?["onload"] == nil)
    #expect(document.elements("rect").first?["fill"] == "white'/><script/>")
    #expect(document.elements("script").isEmpty)
  }

  @Test func charactersXMLForbidsAreReplaced() throws {
    let label = "a\u{0}b\u{1B}c\u{FFFF}d\te"
    let svg = RingSVG().render(RingGeometry(progress: 0.5, diameter: 48, lineWidth: 4), label: label)
    let document = try SVGDocument(svg)
    #expect(document.elements("text").map(\.text) == ["a\u{FFFD}b\u{FFFD}c\u{FFFD}d\te"])
  }

  @Test(arguments: [
    RingGeometry(progress: .nan, diameter: .nan, lineWidth: .nan, scale: .nan),
    RingGeometry(progress: .infinity, diameter: -.infinity, lineWidth: .infinity, scale: 0),
    RingGeometry(progress: 0.5, diameter: .greatestFiniteMagnitude, lineWidth: 1, scale: 3),
    RingGeometry(progress: 0.5, diameter: 1e300, lineWidth: 1e300, scale: .greatestFiniteMagnitude),
    RingGeometry(progress: 0.999, diameter: 48, lineWidth: 100, scale: -1),
    RingGeometry(progress: 1e-300, diameter: .leastNonzeroMagnitude, lineWidth: 0, scale: 1e300),
  ])
  func invalidGeometryStillGivesAValidDocument(ring: RingGeometry) throws {
    let style = RingSVG(dot: .init(radius: .nan), labelFontSize: -.infinity)
    let svg = style.render(ring, label: "0:00")
    let words = svg.lowercased().split { !$0.isLetter }
    #expect(!words.contains("nan") && !words.contains("inf") && !words.contains("infinity"), "\(svg)")
    let document = try SVGDocument(svg)
    let numeric = ["width", "height", "viewBox", "cx", "cy", "r", "x", "y", "stroke-width", "font-size", "d"]
    for element in document.all {
      for name in numeric {
        // Every number is finite and never a negative zero; path commands are single letters.
        for token in element[name]?.split(separator: " ") ?? [] where !token.allSatisfy(\.isLetter) {
          let value = Double(token)
          #expect(value?.isFinite == true && !token.hasPrefix("-0"), "\(name)=\(token) in \(svg)")
        }
      }
    }
  }

  @Test(arguments: [
    (12.5, "12.5"), (-3.25, "-3.25"), (100, "100"), (1.0 / 3, "0.33"), (2.0 / 3, "0.67"), (0.005, "0.01"),
    (0.004, "0"), (-0.004, "0"), (-0.0, "0"), (1_234_567.891, "1234567.89"), (.nan, "0"), (.infinity, "0"),
    (1e300, "1e+300"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
  ])
  func numbersAreFixedAndLocaleIndependent(value: Double, text: String) {
    #expect(RingSVG.number(value) == text)
  }
}

/// The elements of an SVG document, parsed with Foundation's `XMLParser`: parsing fails on malformed XML.
struct SVGDocument {
  struct Element {
    var name: String
    var attributes: [String: String]
    var text = ""

    subscript(attribute: String) -> String? { attributes[attribute] }
  }

  struct ParseError: Error, CustomStringConvertible {
    var description: String
  }

  /// Every element in document order; the first is the root.
  let all: [Element]

  var root: Element { all[0] }

  init(_ source: String) throws {
    let collector = Collector()
    let parser = XMLParser(data: Data(source.utf8))
    parser.delegate = collector
    guard parser.parse(), !collector.elements.isEmpty else {
      let reason = parser.parserError.map { "\($0)" } ?? "no elements"
      throw ParseError(description: "Not well-formed XML (\(reason)) at line \(parser.lineNumber):\n\(source)")
    }
    all = collector.elements
  }

  func elements(_ name: String) -> [Element] {
    all.filter { $0.name == name }
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    private var open: [Int] = []

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      open.append(elements.count)
      elements.append(Element(name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
      open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let current = open.last { elements[current].text += string }
    }
  }
}
