import Foundation

/// The words around a spoken duration, "… left" and "… over", and the words for a countdown that has
/// just finished, for the languages that have them.
///
/// ICU has no "time left" phrase, so this is a small table. Each phrase is chosen so that it needs
/// no grammatical agreement with the number inside it: a label with a colon (Russian, Czech), an
/// adverb (German "Noch"), or a particle after the units (Korean, Chinese, English). The number
/// and the unit words, with their plural forms, come from Foundation.
struct SpokenPhrase: Sendable, Hashable {
  /// Text around a duration: `prefix + duration + suffix`.
  struct Template: Sendable, Hashable {
    var prefix = ""
    var suffix = ""

    func applied(to text: String) -> String { prefix + text + suffix }
  }

  /// Wraps the time left (zero included): "1 hour left".
  var remaining: Template
  /// Wraps the magnitude of an overtime: "5 seconds over".
  var overtime: Template
  /// Said once when a countdown reaches zero: "Time is up".
  var finished: String

  /// The phrase for `locale`'s language, or nil when there is none and the bare units are used.
  init?(locale: Locale) {
    let language = locale.language
    switch language.languageCode?.identifier {
    case "en":
      self.init(remaining: Template(suffix: " left"), overtime: Template(suffix: " over"), finished: "Time is up")
    case "ru":
      self.init(
        remaining: Template(prefix: "Осталось: "), overtime: Template(prefix: "Просрочено: "), finished: "Время вышло")
    case "cs":
      self.init(
        remaining: Template(prefix: "Zbývá: "), overtime: Template(prefix: "Překročeno: "), finished: "Čas vypršel")
    case "de":
      self.init(
        remaining: Template(prefix: "Noch "), overtime: Template(suffix: " über der Zeit"), finished: "Die Zeit ist um")
    case "ko":
      self.init(remaining: Template(suffix: " 남음"), overtime: Template(suffix: " 초과"), finished: "시간 종료")
    case "zh" where language.script == .hanTraditional:
      self.init(remaining: Template(prefix: "剩餘"), overtime: Template(prefix: "超時"), finished: "時間到")
    case "zh":
      self.init(remaining: Template(prefix: "剩余"), overtime: Template(prefix: "超时"), finished: "时间到")
    default:
      return nil
    }
  }

  private init(remaining: Template, overtime: Template, finished: String) {
    self.remaining = remaining
    self.overtime = overtime
    self.finished = finished
  }
}
