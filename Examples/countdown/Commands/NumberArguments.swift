import ArgumentParser

/// A whole-number argument, read by the command's one rule for digits (``DecimalDigits``): `10`,
/// `๑๐` and `-3` are numbers; `1e3`, `0x10` and `²` are not.
struct WholeNumber: ExpressibleByArgument, ExpressibleByIntegerLiteral, Equatable, Sendable {
  var value: Int64

  init?(argument: String) {
    guard let value = NumberText.integer(argument) else { return nil }
    self.value = value
  }

  init(integerLiteral value: Int64) {
    self.value = value
  }

  var defaultValueDescription: String { "\(value)" }
}

/// A non-negative decimal argument, read by the same rule: `120`, `0.5`, `๑๒๐`.
struct DecimalNumber: ExpressibleByArgument, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, Sendable {
  var value: Double

  init?(argument: String) {
    guard let value = NumberText.decimal(argument) else { return nil }
    self.value = value
  }

  init(floatLiteral value: Double) {
    self.value = value
  }

  init(integerLiteral value: Int) {
    self.value = Double(value)
  }

  var defaultValueDescription: String {
    value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
  }
}
