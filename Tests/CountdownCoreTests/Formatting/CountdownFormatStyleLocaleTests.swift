import CountdownCore
import Foundation
import Testing

/// Every preset in the six reference locales, pinned to the exact text.
///
/// The values are 7 s, 5 min, 1 h 2 min 5 s and 26 h. With the default rounding up, 1 h 2 min 5 s
/// shows as 1 h 3 min in every preset that stops at minutes. Czech puts a no-break space between a
/// number and an abbreviated unit and after the one-letter conjunction "a"; the strings say so.
@Suite struct CountdownFormatStyleLocaleTests {
  static let values: [Duration] = [.seconds(7), .seconds(300), .seconds(3_725), .seconds(26 * 3_600)]

  static let expected: [(locale: String, preset: CountdownFormatStyle.Preset, texts: [String])] = [
    ("en", .digital, ["00:07", "05:00", "1:02:05", "26:00:00"]),
    ("en", .units, ["7 sec", "5 min", "1 hr, 3 min", "1 day, 2 hr"]),
    ("en", .coarse, ["1 min", "5 min", "1.5 hours", "26 hours"]),
    ("en", .spoken, ["7 seconds left", "5 minutes left", "1 hour, 3 minutes left", "1 day, 2 hours left"]),

    ("ru", .digital, ["00:07", "05:00", "1:02:05", "26:00:00"]),
    ("ru", .units, ["7 с", "5 мин", "1 ч 3 мин", "1 дн 2 ч"]),
    ("ru", .coarse, ["1 мин", "5 мин", "1,5 часа", "26 часов"]),
    (
      "ru", .spoken,
      [
        "Осталось: 7 секунд", "Осталось: 5 минут", "Осталось: 1 час 3 минуты", "Осталось: 1 день 2 часа",
      ]
    ),

    ("cs", .digital, ["00:07", "05:00", "1:02:05", "26:00:00"]),
    ("cs", .units, ["7\u{A0}s", "5\u{A0}min", "1\u{A0}h, 3\u{A0}min", "1 den, 2\u{A0}h"]),
    ("cs", .coarse, ["1\u{A0}min", "5\u{A0}min", "1,5 hodiny", "26 hodin"]),
    (
      "cs", .spoken,
      [
        "Zbývá: 7 sekund", "Zbývá: 5 minut", "Zbývá: 1 hodina a\u{A0}3 minuty", "Zbývá: 1 den a\u{A0}2 hodiny",
      ]
    ),

    ("de", .digital, ["00:07", "05:00", "1:02:05", "26:00:00"]),
    ("de", .units, ["7 Sek.", "5 Min.", "1 Std., 3 Min.", "1 Tg., 2 Std."]),
    ("de", .coarse, ["1 Min.", "5 Min.", "1,5 Stunden", "26 Stunden"]),
    ("de", .spoken, ["Noch 7 Sekunden", "Noch 5 Minuten", "Noch 1 Stunde und 3 Minuten", "Noch 1 Tag und 2 Stunden"]),

    ("ko", .digital, ["00:07", "05:00", "1:02:05", "26:00:00"]),
    ("ko", .units, ["7초", "5분", "1시간 3분", "1일 2시간"]),
    ("ko", .coarse, ["1분", "5분", "1.5시간", "26시간"]),
    ("ko", .spoken, ["7초 남음", "5분 남음", "1시간 3분 남음", "1일 2시간 남음"]),

    ("zh-Hans", .digital, ["00:07", "05:00", "1:02:05", "26:00:00"]),
    ("zh-Hans", .units, ["7秒", "5分钟", "1小时3分钟", "1天2小时"]),
    ("zh-Hans", .coarse, ["1分钟", "5分钟", "1.5小时", "26小时"]),
    ("zh-Hans", .spoken, ["剩余7秒钟", "剩余5分钟", "剩余1小时3分钟", "剩余1天2小时"]),
  ]

  @Test(arguments: expected)
  func formatsReferenceValues(locale: String, preset: CountdownFormatStyle.Preset, texts: [String]) {
    let style = CountdownFormatStyle(preset, locale: Locale(identifier: locale))
    #expect(Self.values.map(style.format) == texts)
  }

  @Test func coversEveryPresetInEveryLocale() {
    let covered = Set(Self.expected.map { "\($0.locale) \($0.preset)" })
    for locale in ["en", "ru", "cs", "de", "ko", "zh-Hans"] {
      for preset in CountdownFormatStyle.Preset.allCases {
        #expect(covered.contains("\(locale) \(preset)"), "no expectations for \(preset) in \(locale)")
      }
    }
  }

  @Test func traditionalChineseGetsItsOwnPhrase() {
    let style = CountdownFormatStyle(.spoken, locale: Locale(identifier: "zh-TW"))
    #expect(style.format(.seconds(3_725)) == "剩餘1小時3分鐘")
    #expect(style.format(.seconds(-5)) == "超時5秒")
  }

  @Test func otherLanguagesGetTheBareUnits() {
    let style = CountdownFormatStyle(.spoken, locale: Locale(identifier: "ja"))
    #expect(style.format(.seconds(3_725)) == "1時間 3分")
    #expect(style.format(.seconds(-5)) == "-5秒")
  }

  @Test func digitsFollowTheLocale() {
    let style = CountdownFormatStyle(.digital, locale: Locale(identifier: "ar-EG"))
    #expect(style.format(.seconds(7)) == "٠٠:٠٧")
  }

  @Test func staticMemberAndLocaleModifierBuildTheSameStyle() {
    let russian = Locale(identifier: "ru")
    let sugar: CountdownFormatStyle = .countdown(.coarse, locale: russian)
    #expect(sugar == CountdownFormatStyle(.coarse, locale: russian))
    #expect(CountdownFormatStyle(.coarse).locale(russian) == sugar)
    #expect(Duration.seconds(5_400).formatted(.countdown(.coarse, locale: russian)) == "1,5 часа")
    #expect(CountdownFormatStyle(.digital).rounding(.down) == CountdownFormatStyle(.digital, rounding: .down))
  }

  @Test func roundTripsThroughCodable() throws {
    let style = CountdownFormatStyle(.spoken, rounding: .down, locale: Locale(identifier: "cs"))
    let decoded = try JSONDecoder().decode(CountdownFormatStyle.self, from: JSONEncoder().encode(style))
    #expect(decoded == style)
    #expect(decoded.format(.seconds(3_725)) == style.format(.seconds(3_725)))
  }
}
