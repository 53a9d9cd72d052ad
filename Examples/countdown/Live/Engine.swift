import CountdownKit

/// The engine the command runs on: time measured on `ContinuousClock`, which keeps counting while
/// the process is stopped and ignores wall-clock changes.
typealias Engine = CountdownEngine<ContinuousClock>
/// The engine's instants.
typealias EngineInstant = ContinuousClock.Instant
/// A handle to one countdown of the engine.
typealias Handle = CountdownHandle<ContinuousClock>
