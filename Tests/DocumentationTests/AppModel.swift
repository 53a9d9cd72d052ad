import CountdownCore
import Foundation
import Synchronization

// The app the documentation's examples are written for: a marketplace whose orders each have a
// two-hour fitting window. These are the declarations the examples use without showing them.

/// An order: the examples' `order`.
struct Order: Identifiable, Hashable, Sendable {
  /// The order's number.
  let id: Int
  /// What is shown for it, e.g. "Fitting: Ada L.".
  var title: String
  /// When its fitting window closes, as the server sent it.
  var fittingEndsAt: Date
}

/// Where the widget reads the next order from (the app group it shares with the app).
final class OrderStore: Sendable {
  /// The store of the app group.
  static let shared = OrderStore()

  private let order = Mutex<Order?>(nil)

  /// The order whose window closes next, if any.
  func nextOrder() -> Order? { order.withLock { $0 } }

  /// Replaces the next order (the app does this when it syncs; the tests do it by hand).
  func setNextOrder(_ next: Order?) { order.withLock { $0 = next } }
}

/// A server update of an auction's end, as the WebSocket example decodes it.
struct AuctionUpdate: Decodable, Sendable {
  /// The new end.
  let endsAt: Date
}

/// The app's API client, as far as the examples use it.
struct API: Sendable {
  /// Asks the server for its current time (in the examples, a stub that answers at once).
  func serverTime() async throws -> Date { Date() }
  /// Tells the server that the order's window has closed.
  func expire(_ id: Order.ID) async {}
  /// Hands the server a Live Activity's plan: it pushes each later update, and the end, at its date.
  func schedulePushes<Value>(of plan: LiveActivityPlan<Value>, for id: Order.ID) async throws {}
  /// Sends the clients every order whose time left changed, in one message.
  func publishTimesLeft(_ secondsLeft: [Order.ID: Int64]) async {}
}

/// The app's local store of orders, as far as the examples use it.
@MainActor final class OrderDatabase {
  /// Ids the examples marked as expired.
  private(set) var expired: [Order.ID] = []
  /// Marks an order's window as closed.
  func markExpired(_ id: Order.ID) { expired.append(id) }
}
