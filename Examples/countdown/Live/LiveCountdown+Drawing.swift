import CountdownKit
import Foundation

extension LiveCountdown {
  /// The state on screen now.
  var screen: LiveScreen {
    guard let snapshot = latest else { return LiveScreen(text: "") }
    let countsUp = setup?.countsUp ?? false
    var screen = LiveScreen(
      text: snapshot.value.text, ring: snapshot.value.ring, urgency: snapshot.value.urgency,
      isStopwatch: setup?.countdown.total == nil, isPaused: snapshot.isPaused, title: plan.items[index].title,
      position: plan.position(of: index))
    if isInFinale {
      screen.status = "time's up"
      screen.endText = plan.endText
      screen.isFlashed = isFlashed
      screen.hint = plan.quitAfter == nil ? "press any key to quit" : "press any key to quit now"
    } else if snapshot.isPaused {
      screen.status = "paused"
    } else if setup?.countdown.total == nil {
      screen.status = "stopwatch"
    } else if snapshot.isFinished {
      screen.status = "time's up"
    } else {
      screen.status = deadlineText ?? ""
    }
    if countsUp && !isInFinale {
      screen.laps = laps.lines
      screen.hint = "space pause · l lap · r reset · q quit"
    }
    return screen
  }

  /// Sends the changes of the frame (and of the window title) to the terminal.
  func draw() {
    guard !hasEnded, latest != nil else { return }
    let (columns, rows) = Terminal.size
    let frame = LiveFrameBuilder.frame(screen, columns: columns, rows: rows, ring: ring)
    var output = writer.update(to: frame)
    if plan.windowTitle, let text = latest?.value.text {
      let title = plan.items[index].title.map { "\(text) · \($0)" } ?? "\(text) · countdown"
      if title != shownTitle {
        shownTitle = title
        output += Terminal.windowTitleSequence(title)
      }
    }
    if !output.isEmpty { Terminal.write(output) }
  }
}
