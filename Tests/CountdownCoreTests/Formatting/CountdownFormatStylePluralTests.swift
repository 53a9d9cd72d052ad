import CountdownCore
import Foundation
import Testing

/// Russian and Czech plural forms for 1, 2, 5, 21, 22 and 25, all from Foundation's CLDR data.
///
/// Russian has one/few/many (час, часа, часов; 21 takes "one", 22 "few"); Czech has one/few/other
/// (hodina, hodiny, hodin; 21 and 22 take "other") and a "many" form for fractions (1,5 hodiny).
@Suite struct CountdownFormatStylePluralTests {
  static let counts = [1, 2, 5, 21, 22, 25]

  static func style(_ preset: CountdownFormatStyle.Preset, _ locale: String) -> CountdownFormatStyle {
    CountdownFormatStyle(preset, locale: Locale(identifier: locale))
  }

  static func texts(_ preset: CountdownFormatStyle.Preset, _ locale: String, unit: Duration) -> [String] {
    counts.map { style(preset, locale).format(unit * $0) }
  }

  @Test func russianHours() {
    // 25 hours are more than a day, so the units and spoken presets switch to days.
    #expect(
      Self.texts(.spoken, "ru", unit: .seconds(3_600)) == [
        "Осталось: 1 час", "Осталось: 2 часа", "Осталось: 5 часов", "Осталось: 21 час", "Осталось: 22 часа",
        "Осталось: 1 день 1 час",
      ])
    #expect(Self.texts(.units, "ru", unit: .seconds(3_600)) == ["1 ч", "2 ч", "5 ч", "21 ч", "22 ч", "1 дн 1 ч"])
    // One hour exactly is still counted in minutes by the coarse preset.
    #expect(
      Self.texts(.coarse, "ru", unit: .seconds(3_600)) == [
        "60 мин", "2 часа", "5 часов", "21 час", "22 часа", "25 часов",
      ])
  }

  @Test func czechHours() {
    #expect(
      Self.texts(.spoken, "cs", unit: .seconds(3_600)) == [
        "Zbývá: 1 hodina", "Zbývá: 2 hodiny", "Zbývá: 5 hodin", "Zbývá: 21 hodin", "Zbývá: 22 hodin",
        "Zbývá: 1 den a\u{A0}1 hodina",
      ])
    #expect(
      Self.texts(.units, "cs", unit: .seconds(3_600)) == [
        "1\u{A0}h", "2\u{A0}h", "5\u{A0}h", "21\u{A0}h", "22\u{A0}h", "1 den, 1\u{A0}h",
      ])
    #expect(
      Self.texts(.coarse, "cs", unit: .seconds(3_600)) == [
        "60\u{A0}min", "2 hodiny", "5 hodin", "21 hodin", "22 hodin", "25 hodin",
      ])
  }

  @Test func fractionalHoursTakeTheFractionForm() {
    let halves = Self.counts.map { Duration.seconds($0 * 3_600 + 1_800) }
    #expect(
      halves.map(Self.style(.coarse, "ru").format) == [
        "1,5 часа", "2,5 часа", "5,5 часа", "21,5 часа", "22,5 часа", "25,5 часа",
      ])
    #expect(
      halves.map(Self.style(.coarse, "cs").format) == [
        "1,5 hodiny", "2,5 hodiny", "5,5 hodiny", "21,5 hodiny", "22,5 hodiny", "25,5 hodiny",
      ])
  }

  @Test func minutesAndDays() {
    #expect(
      Self.texts(.spoken, "ru", unit: .seconds(60)) == [
        "Осталось: 1 минута", "Осталось: 2 минуты", "Осталось: 5 минут", "Осталось: 21 минута",
        "Осталось: 22 минуты", "Осталось: 25 минут",
      ])
    #expect(
      Self.texts(.spoken, "cs", unit: .seconds(60)) == [
        "Zbývá: 1 minuta", "Zbývá: 2 minuty", "Zbývá: 5 minut", "Zbývá: 21 minut", "Zbývá: 22 minut",
        "Zbývá: 25 minut",
      ])
    #expect(
      Self.texts(.spoken, "ru", unit: .seconds(86_400)) == [
        "Осталось: 1 день", "Осталось: 2 дня", "Осталось: 5 дней", "Осталось: 21 день", "Осталось: 22 дня",
        "Осталось: 25 дней",
      ])
    #expect(
      Self.texts(.spoken, "cs", unit: .seconds(86_400)) == [
        "Zbývá: 1 den", "Zbývá: 2 dny", "Zbývá: 5 dnů", "Zbývá: 21 dnů", "Zbývá: 22 dnů", "Zbývá: 25 dnů",
      ])
  }

  @Test func overtimeKeepsTheNominativeForms() {
    #expect(Self.style(.spoken, "ru").format(.seconds(-2 * 3_600)) == "Просрочено: 2 часа")
    #expect(Self.style(.spoken, "cs").format(.seconds(-21 * 60)) == "Překročeno: 21 minut")
  }
}
