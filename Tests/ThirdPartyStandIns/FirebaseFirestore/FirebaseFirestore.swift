// STAND-IN, NOT FIREBASE: the part of FirebaseFirestore's Swift API that the documentation's examples
// use, declared as Firebase declares it (`ListenerRegistration` is a protocol that is not `Sendable`,
// listeners are closures that are not `@Sendable`, `snapshots` are sequences whose iterators are not
// `Sendable`), over an in-memory database that tests write to. Types Firebase 11.2 and later mark
// `@unchecked Sendable` (DocumentSnapshot, DocumentReference, Query, CollectionReference) are not
// `Sendable` here: code that compiles against this compiles against both. See ../README.md.
public import Foundation

/// A listener that can be removed (stand-in of `ListenerRegistration`, `NSObjectProtocol` on Apple
/// platforms; not `Sendable`).
public protocol ListenerRegistration: AnyObject {
  /// Removes the listener; later calls do nothing.
  func remove()
}

/// A point in time (stand-in of `Timestamp`).
public final class Timestamp {
  private let date: Date

  /// A timestamp for `date`.
  public init(date: Date) { self.date = date }

  /// The timestamp as a `Date`.
  public func dateValue() -> Date { date }
}

/// A document's contents at one moment (stand-in of `DocumentSnapshot`).
public class DocumentSnapshot {
  /// The document's ID.
  public let documentID: String
  private let fields: [String: any Sendable]?

  init(documentID: String, fields: [String: any Sendable]?) {
    self.documentID = documentID
    self.fields = fields
  }

  /// Whether the document exists.
  public var exists: Bool { fields != nil }

  /// Every field, or `nil` when the document does not exist. Dates read back as `Timestamp`s.
  public func data() -> [String: Any]? { fields?.mapValues(Self.read) }

  /// The value of `field`, or `nil`. A date reads back as a `Timestamp`.
  public func get(_ field: Any) -> Any? {
    guard let name = field as? String, let value = fields?[name] else { return nil }
    return Self.read(value)
  }

  private static func read(_ value: any Sendable) -> Any {
    if let date = value as? Date { return Timestamp(date: date) }
    return value
  }
}

/// A document of a query's results (stand-in of `QueryDocumentSnapshot`).
public final class QueryDocumentSnapshot: DocumentSnapshot {}

/// What happened to a document in a query's results (stand-in of `DocumentChangeType`).
public enum DocumentChangeType: Int, Sendable {
  /// It entered the results.
  case added
  /// It changed.
  case modified
  /// It left the results.
  case removed
}

/// One document's change in a query's results (stand-in of `DocumentChange`).
public final class DocumentChange {
  /// What happened.
  public let type: DocumentChangeType
  /// The document, as it is now (as it was, for `.removed`).
  public let document: QueryDocumentSnapshot

  init(type: DocumentChangeType, document: QueryDocumentSnapshot) {
    self.type = type
    self.document = document
  }
}

/// A query's results at one moment (stand-in of `QuerySnapshot`).
public final class QuerySnapshot {
  /// The documents.
  public let documents: [QueryDocumentSnapshot]
  /// What changed since the previous snapshot: every document, as added, in the first one.
  public let documentChanges: [DocumentChange]

  init(documents: [QueryDocumentSnapshot], documentChanges: [DocumentChange]) {
    self.documents = documents
    self.documentChanges = documentChanges
  }
}

/// A query (stand-in of `Query`): here, every document of a collection.
public class Query {
  let database: Database
  let path: String

  init(database: Database, path: String) {
    self.database = database
    self.path = path
  }

  /// Calls `listener` with the results now, then at every change, until the registration is removed.
  /// Firestore calls listeners on the main queue; the stand-in calls them where the database is
  /// written (the tests write on the main actor).
  public func addSnapshotListener(_ listener: @escaping (QuerySnapshot?, (any Error)?) -> Void)
    -> any ListenerRegistration
  {
    let listener = UncheckedListener(listener)
    return database.listen(toCollection: path) { snapshot, error in listener.call(snapshot?.make(), error) }
  }

  /// The results now, then at every change (stand-in of `Query.snapshots`, iOS 18 and later).
  public var snapshots: QuerySnapshotsSequence { QuerySnapshotsSequence(database: database, path: path) }
}

/// The results of a query as they change (stand-in of `Query.QuerySnapshotsSequence`).
public struct QuerySnapshotsSequence: AsyncSequence {
  /// A snapshot of the results.
  public typealias Element = QuerySnapshot
  /// The error that stopped the listener.
  public typealias Failure = any Error

  let database: Database
  let path: String

  /// Starts listening.
  public func makeAsyncIterator() -> Iterator {
    let database = database
    let path = path
    let stream = AsyncThrowingStream<QuerySnapshot, any Error> { continuation in
      let registration = database.listen(toCollection: path) { snapshot, error in
        if let snapshot { continuation.yield(snapshot.make()) } else { continuation.finish(throwing: error) }
      }
      continuation.onTermination = { _ in registration.remove() }
    }
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// Reads the snapshots (not `Sendable`, as Firebase's).
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<QuerySnapshot, any Error>.Iterator

    /// The next snapshot; `nil` once the listener was removed.
    public mutating func next() async throws -> QuerySnapshot? { try await base.next() }
  }
}

@available(*, unavailable)
extension QuerySnapshotsSequence.Iterator: Sendable {}

/// A collection (stand-in of `CollectionReference`).
public final class CollectionReference: Query {
  /// The document at `documentPath` in this collection.
  public func document(_ documentPath: String) -> DocumentReference {
    DocumentReference(database: database, path: "\(path)/\(documentPath)")
  }
}

/// A document's place in the database (stand-in of `DocumentReference`).
public final class DocumentReference {
  let database: Database
  let path: String

  init(database: Database, path: String) {
    self.database = database
    self.path = path
  }

  /// Calls `listener` with the document now, then at every change, until the registration is removed
  /// (see ``Query/addSnapshotListener(_:)``).
  public func addSnapshotListener(_ listener: @escaping (DocumentSnapshot?, (any Error)?) -> Void)
    -> any ListenerRegistration
  {
    let listener = UncheckedListener(listener)
    return database.listen(toDocument: path) { snapshot, error in listener.call(snapshot?.make(), error) }
  }

  /// The document now, then at every change (stand-in of `DocumentReference.snapshots`, iOS 18 and
  /// later).
  public var snapshots: DocumentSnapshotsSequence { DocumentSnapshotsSequence(database: database, path: path) }
}

/// A document as it changes (stand-in of `DocumentReference.DocumentSnapshotsSequence`).
public struct DocumentSnapshotsSequence: AsyncSequence {
  /// A snapshot of the document.
  public typealias Element = DocumentSnapshot
  /// The error that stopped the listener.
  public typealias Failure = any Error

  let database: Database
  let path: String

  /// Starts listening.
  public func makeAsyncIterator() -> Iterator {
    let database = database
    let path = path
    let stream = AsyncThrowingStream<DocumentSnapshot, any Error> { continuation in
      let registration = database.listen(toDocument: path) { snapshot, error in
        if let snapshot { continuation.yield(snapshot.make()) } else { continuation.finish(throwing: error) }
      }
      continuation.onTermination = { _ in registration.remove() }
    }
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// Reads the snapshots (not `Sendable`, as Firebase's).
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<DocumentSnapshot, any Error>.Iterator

    /// The next snapshot; `nil` once the listener was removed.
    public mutating func next() async throws -> DocumentSnapshot? { try await base.next() }
  }
}

@available(*, unavailable)
extension DocumentSnapshotsSequence.Iterator: Sendable {}

/// A database (stand-in of `Firestore`).
public final class Firestore {
  let database = Database()

  /// A database of its own (Firebase's `firestore()` returns the app's one).
  public init() {}

  /// The collection at `collectionPath`.
  public func collection(_ collectionPath: String) -> CollectionReference {
    CollectionReference(database: database, path: collectionPath)
  }

  // MARK: - For tests (not in Firebase): what the server would do

  /// Writes the document at `path` ("collection/id") and tells its listeners.
  public func _setData(_ fields: [String: any Sendable], at path: String) { database.write(fields, at: path) }

  /// Deletes the document at `path` and tells its listeners.
  public func _deleteDocument(at path: String) { database.write(nil, at: path) }

  /// Fails every listener of `path` (a document, or a collection) with `error`, as a lost permission
  /// does; they are removed.
  public func _fail(_ path: String, with error: any Error) { database.fail(path, with: error) }

  /// How many listeners the database has: 0 once every registration was removed.
  public var _listenerCount: Int { database.listenerCount }
}

/// A listener closure that is not `Sendable`, kept by the database and called where it is written (the
/// tests write on the main actor, where Firestore calls back too).
final class UncheckedListener<Value>: @unchecked Sendable {
  private let body: (Value?, (any Error)?) -> Void

  init(_ body: @escaping (Value?, (any Error)?) -> Void) { self.body = body }

  func call(_ value: Value?, _ error: (any Error)?) { body(value, error) }
}
