import CountdownCore
import Foundation
import Testing

/// Golden-file tests: each case's document must equal `Snapshots/<name>.svg` next to this file.
///
/// Run with `RECORD_SNAPSHOTS=1 swift test --filter RingSVGSnapshotTests` to rewrite the files after an
/// intended change (the tests then fail, saying so); review the diff and open the files in a browser.
@Suite struct RingSVGSnapshotTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var geometry: RingGeometry
    var style = RingSVG()
    var label: String?
    var progressColor: String?

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "full", geometry: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3), label: "0:08"),
    Case(
      name: "three-quarters", geometry: RingGeometry(progress: 0.75, diameter: 48, lineWidth: 4, scale: 3),
      style: RingSVG(dot: .init()), label: "0:06"),
    Case(
      name: "quarter", geometry: RingGeometry(progress: 0.25, diameter: 48, lineWidth: 4, scale: 3),
      style: RingSVG(dot: .init()), label: "0:02", progressColor: "#ff9500"),
    Case(
      name: "nearly-empty", geometry: RingGeometry(progress: 0.01, diameter: 48, lineWidth: 4, scale: 3),
      label: "0:00", progressColor: "#ff3b30"),
    Case(name: "empty", geometry: RingGeometry(progress: 0, diameter: 48, lineWidth: 4, scale: 3), label: "Done"),
    Case(
      name: "counterclockwise",
      geometry: RingGeometry(progress: 0.6, diameter: 120, lineWidth: 10, scale: 2, clockwise: false),
      style: RingSVG(
        trackColor: "#3a3a3c", progressColor: "#30d158", lineCap: .butt, dot: .init(radius: 8, color: "#ffffff"),
        labelColor: "#ffffff", labelFontSize: 24, backgroundColor: "#1c1c1e"),
      label: "1:30"),
    Case(
      name: "hostile-label", geometry: RingGeometry(progress: 0.5, diameter: 48, lineWidth: 4, scale: 3),
      label: #"<script>&"'"#),
    Case(
      name: "invalid", geometry: RingGeometry(progress: .nan, diameter: -48, lineWidth: .infinity, scale: 0),
      style: RingSVG(dot: .init()), label: "?"),
  ]

  static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots", isDirectory: true)

  @Test(arguments: cases)
  func matchesSnapshot(_ testCase: Case) throws {
    let actual = testCase.style.render(testCase.geometry, label: testCase.label, progressColor: testCase.progressColor)
    let file = Self.snapshots.appendingPathComponent("\(testCase.name).svg")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
      try Data(actual.utf8).write(to: file)
      Issue.record("Recorded \(file.path); unset RECORD_SNAPSHOTS and run the tests again to compare against it.")
      return
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      Issue.record("No snapshot at \(file.path); run with RECORD_SNAPSHOTS=1 to record it.")
      return
    }
    let expected = String(decoding: data, as: UTF8.self)
    #expect(
      actual == expected, "\(testCase.name).svg differs; if the change is intended, re-record with RECORD_SNAPSHOTS=1")
  }
}
