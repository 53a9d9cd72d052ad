import NIOCore
import PostgresNIO

/// An array parameter whose elements may be NULL, in PostgreSQL's binary array format (postgres-nio
/// encodes arrays of non-optional elements only): a bulk statement sends a column as one parameter.
struct NullableArray<Element: PostgresArrayEncodable & PostgresNonThrowingEncodable>: PostgresNonThrowingEncodable {
  var elements: [Element?]

  static var psqlType: PostgresDataType { Element.psqlArrayType }
  static var psqlFormat: PostgresFormat { .binary }

  func encode<JSONEncoder: PostgresJSONEncoder>(
    into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
  ) {
    // Dimensions (0 for an empty array), whether there are NULLs, the element type.
    buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
    buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
    buffer.writeInteger(Element.psqlType.rawValue)
    guard !elements.isEmpty else { return }
    // The one dimension: its length and lower bound; then each element's length (-1: NULL) and bytes.
    buffer.writeInteger(Int32(elements.count))
    buffer.writeInteger(1, as: Int32.self)
    for element in elements {
      guard let element else {
        buffer.writeInteger(-1, as: Int32.self)
        continue
      }
      let lengthIndex = buffer.writerIndex
      buffer.writeInteger(0, as: Int32.self)
      let start = buffer.writerIndex
      element.encode(into: &buffer, context: context)
      buffer.setInteger(Int32(buffer.writerIndex - start), at: lengthIndex)
    }
  }
}
