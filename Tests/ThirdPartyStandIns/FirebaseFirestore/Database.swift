// STAND-IN, NOT FIREBASE: the in-memory database behind the stand-in's references, and what its listeners
// receive. Its internals are `Sendable` (a listener may be removed from any thread, as Firebase allows);
// the public types built from them are not.
import Foundation
import Synchronization

/// A document as data: what a `DocumentSnapshot` is made of.
struct DocumentData: Sendable {
  let id: String
  let fields: [String: any Sendable]?

  func make() -> DocumentSnapshot { DocumentSnapshot(documentID: id, fields: fields) }
  func makeInQuery() -> QueryDocumentSnapshot { QueryDocumentSnapshot(documentID: id, fields: fields) }
}

/// A query's results as data: what a `QuerySnapshot` is made of.
struct QueryData: Sendable {
  let documents: [DocumentData]
  let changes: [(type: DocumentChangeType, document: DocumentData)]

  func make() -> QuerySnapshot {
    QuerySnapshot(
      documents: documents.map { $0.makeInQuery() },
      documentChanges: changes.map { DocumentChange(type: $0.type, document: $0.document.makeInQuery()) })
  }
}

/// Documents by path ("collection/id") and the listeners of documents and collections.
final class Database: Sendable {
  private enum Listener {
    case document(path: String, call: @Sendable (DocumentData?, (any Error)?) -> Void)
    case collection(path: String, seen: Set<String>, call: @Sendable (QueryData?, (any Error)?) -> Void)
  }

  private struct State {
    var documents: [String: [String: any Sendable]] = [:]
    var listeners: [Int: Listener] = [:]
    var nextListener = 0
  }

  private let state = Mutex(State())

  var listenerCount: Int { state.withLock { $0.listeners.count } }

  /// Calls `call` with the document at `path` now, then at every write to it.
  func listen(
    toDocument path: String, _ call: @escaping @Sendable (DocumentData?, (any Error)?) -> Void
  ) -> Registration {
    let (id, now) = state.withLock { state in
      state.nextListener += 1
      state.listeners[state.nextListener] = .document(path: path, call: call)
      return (state.nextListener, Self.document(at: path, in: state))
    }
    call(now, nil)
    return Registration(database: self, id: id)
  }

  /// Calls `call` with the documents of the collection at `path` now (each as added), then with what
  /// changed at every write to one of them.
  func listen(
    toCollection path: String, _ call: @escaping @Sendable (QueryData?, (any Error)?) -> Void
  ) -> Registration {
    let (id, now) = state.withLock { state in
      state.nextListener += 1
      let documents = Self.documents(in: path, of: state)
      state.listeners[state.nextListener] = .collection(path: path, seen: Set(documents.map(\.id)), call: call)
      return (state.nextListener, QueryData(documents: documents, changes: documents.map { (.added, $0) }))
    }
    call(now, nil)
    return Registration(database: self, id: id)
  }

  /// Writes (or, with `nil`, deletes) the document at `path`, then tells its listeners.
  func write(_ fields: [String: any Sendable]?, at path: String) {
    let collection = String(path.prefix { $0 != "/" })
    let id = String(path.drop { $0 != "/" }.dropFirst())
    let calls = state.withLock { state -> [@Sendable () -> Void] in
      state.documents[path] = fields
      var calls: [@Sendable () -> Void] = []
      for (key, listener) in state.listeners {
        switch listener {
        case .document(let watched, let call) where watched == path:
          let now = Self.document(at: path, in: state)
          calls.append { call(now, nil) }
        case .collection(let watched, var seen, let call) where watched == collection:
          let document = DocumentData(id: id, fields: fields)
          let type: DocumentChangeType = fields == nil ? .removed : seen.contains(id) ? .modified : .added
          if fields == nil { seen.remove(id) } else { seen.insert(id) }
          state.listeners[key] = .collection(path: watched, seen: seen, call: call)
          let now = QueryData(documents: Self.documents(in: collection, of: state), changes: [(type, document)])
          calls.append { call(now, nil) }
        case .document, .collection:
          break
        }
      }
      return calls
    }
    for call in calls { call() }
  }

  /// Fails and removes the listeners of `path` (a document or a collection).
  func fail(_ path: String, with error: any Error) {
    let calls = state.withLock { state -> [@Sendable () -> Void] in
      var calls: [@Sendable () -> Void] = []
      for (key, listener) in state.listeners {
        switch listener {
        case .document(let watched, let call) where watched == path:
          calls.append { call(nil, error) }
          state.listeners[key] = nil
        case .collection(let watched, _, let call) where watched == path:
          calls.append { call(nil, error) }
          state.listeners[key] = nil
        case .document, .collection:
          break
        }
      }
      return calls
    }
    for call in calls { call() }
  }

  func remove(_ id: Int) {
    _ = state.withLock { $0.listeners.removeValue(forKey: id) }
  }

  private static func document(at path: String, in state: State) -> DocumentData {
    DocumentData(id: String(path.drop { $0 != "/" }.dropFirst()), fields: state.documents[path])
  }

  private static func documents(in collection: String, of state: State) -> [DocumentData] {
    state.documents.keys.filter { $0.hasPrefix(collection + "/") }.sorted().map { document(at: $0, in: state) }
  }
}

/// Removes a listener of the database (`Sendable` inside the stand-in; code that uses it sees only
/// `any ListenerRegistration`, which is not).
final class Registration: ListenerRegistration, Sendable {
  let database: Database
  let id: Int

  init(database: Database, id: Int) {
    self.database = database
    self.id = id
  }

  func remove() { database.remove(id) }
}
