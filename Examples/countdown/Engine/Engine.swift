import CountdownCore

/// The engine the command runs on, and the instants it measures time in.
typealias Engine = InterimEngine
typealias EngineInstant = ContinuousClock.Instant
