// Timing helpers shared by the benchmark executables (never a dependency of a library or the CLI).

/// The clock every benchmark measures with.
public let benchmarkClock = ContinuousClock()

/// `duration` in seconds.
public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// Runs `body` repeatedly for at least `minimum` seconds; returns seconds per run.
public func measure(minimum: Double = 1.0, _ body: () throws -> Void) rethrows -> Double {
    var runs = 0
    let start = benchmarkClock.now
    repeat {
        try body()
        runs += 1
    } while seconds(benchmarkClock.now - start) < minimum
    return seconds(benchmarkClock.now - start) / Double(runs)
}
