#if canImport(Combine)
  public import Combine
#else
  public import OpenCombine
#endif
public import CountdownKit
public import Foundation

#if canImport(Observation)
  extension FollowingCountdownModel {
    /// Follows the dates `publisher` publishes, from now on: counts to each as it arrives; `nil` means
    /// the source has no date (it was deleted), and the model then shows nothing.
    ///
    /// Values may be published on any thread: each reaches the model in a hop to the main actor, and of
    /// several published before the hop, the newest counts (the model always counts to the latest date).
    /// The model owns the subscription: it lasts until the model follows another source,
    /// ``CountdownKit/FollowingCountdownModel/stopFollowing()`` is called, or the model goes away. A
    /// publisher that finishes or fails leaves the countdown going to the last date it gave.
    public func follow<Dates: Publisher>(_ dates: Dates) where Dates.Output == Date? {
      subscribe(dates) { model, date in model.update(to: date) }
    }

    /// Follows the dates `publisher` publishes, counting to each as it arrives; see ``follow(_:)``.
    public func follow<Dates: Publisher>(_ dates: Dates) where Dates.Output == Date {
      subscribe(dates) { model, date in model.update(to: date) }
    }

    /// Follows what `countdowns` publishes: each is what the source says now — running to a date,
    /// paused with the time left, or finished — and `nil` means it has none. See ``follow(_:)``.
    public func follow<Countdowns: Publisher>(_ countdowns: Countdowns) where Countdowns.Output == StoredCountdown? {
      subscribe(countdowns) { model, countdown in model.update(to: countdown) }
    }

    /// Subscribes to `publisher`, applying its newest value on the main actor, and lets the model own the
    /// subscription.
    private func subscribe<Source: Publisher>(
      _ publisher: Source, _ apply: @escaping @MainActor @Sendable (FollowingCountdownModel, Source.Output) -> Void
    ) where Source.Output: Sendable {
      let newest = Newest<Source.Output>()
      // Explicitly `@Sendable`, so not isolated to the main actor: the publisher may call it on any thread.
      let subscription = publisher.sink(
        receiveCompletion: { @Sendable _ in },
        receiveValue: { @Sendable [weak self] value in
          guard newest.put(value) else { return }
          Task { @MainActor [weak self] in
            guard let value = newest.take(), let self else { return }
            apply(self, value)
          }
        })
      follow(FollowedSource(subscription: subscription))
    }
  }

  /// The newest value a publisher sent and not yet taken to the main actor: one hop serves all the values
  /// sent before it runs, and only the newest counts.
  final class Newest<Value: Sendable>: Sendable {
    private let state = Lock<(value: Value?, hopPending: Bool)>((nil, false))

    /// Keeps `value` as the newest; true when no hop is pending to take it (the caller schedules one).
    func put(_ value: Value) -> Bool {
      state.withLock { state in
        state.value = value
        defer { state.hopPending = true }
        return !state.hopPending
      }
    }

    /// The newest value, taken; a value put from now on needs a new hop.
    func take() -> Value? {
      state.withLock { state in
        state.hopPending = false
        defer { state.value = nil }
        return state.value
      }
    }
  }
#endif
