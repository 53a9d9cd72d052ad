// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's Formatting article, byte for byte: keep the
// two in step (.ci/check-doc-blocks). The tests check what the comments in them claim.
import CountdownCore
import Foundation
import Testing

@Suite struct FormattingExamples {
  @Test func presets() {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Formatting.md
    let remaining: Duration = .seconds(3_725)       // 1 h 2 min 5 s
    let english = Locale(identifier: "en")

    let digital = remaining.formatted(.countdown(.digital, locale: english))   // "1:02:05"
    let units = remaining.formatted(.countdown(.units, locale: english))       // "1 hr, 3 min"
    let coarse = remaining.formatted(.countdown(.coarse, locale: english))     // "1.5 hours"
    let spoken = remaining.formatted(.countdown(.spoken, locale: english))     // "1 hour, 3 minutes left"

    let russian = Locale(identifier: "ru")
    let coarseRU = remaining.formatted(.countdown(.coarse, locale: russian))   // "1,5 часа"
    let spokenRU = remaining.formatted(.countdown(.spoken, locale: russian))   // "Осталось: 1 час 3 минуты"
    // end docs
    #expect([digital, units, coarse, spoken] == ["1:02:05", "1 hr, 3 min", "1.5 hours", "1 hour, 3 minutes left"])
    #expect([coarseRU, spokenRU] == ["1,5 часа", "Осталось: 1 час 3 минуты"])
  }

  @Test func roundingDown() {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Formatting.md
    let elapsed: Duration = .milliseconds(6_800)
    let text = elapsed.formatted(.countdown(.digital, rounding: .down))    // "00:06"
    // end docs
    #expect(text == Duration.seconds(6).formatted(.countdown(.digital)))
  }
}

#if os(Linux)
  import SwiftUI

  enum FormattingArticle {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Formatting.md
    struct OrderRow: View {
      let snapshot: CountdownSnapshot<Duration, ContinuousClock.Instant>

      var body: some View {
        Text(snapshot.value, format: .countdown(.digital))
          .monospacedDigit()
          .accessibilityLabel(snapshot.value.formatted(.countdown(.spoken)))
      }
    }
    // end docs
  }
#endif
