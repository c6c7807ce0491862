public import PanTrace

/// Estimates one pointer's velocity from its recent positions, exactly as the chosen
/// platform does.
///
/// A value type holding the 20 samples both platforms keep in storage allocated once, at
/// `init`: ``add(x:y:atNanoseconds:)`` and ``velocity()`` never allocate (a copied tracker
/// shares that storage until one copy is changed, like an array).
///
/// Feed it the tracked pointer's DOWN and MOVE positions (never the lift's), then ask for
/// the velocity; ``VelocityFeeder`` does that for a whole pointer stream.
///
/// ```swift
/// var tracker = VelocityTracker(strategy: .lsq2)
/// tracker.add(x: 0, y: 0, atNanoseconds: 0)
/// tracker.add(x: 5, y: 0, atNanoseconds: 10_000_000)
/// tracker.add(x: 10, y: 0, atNanoseconds: 20_000_000)
/// tracker.velocity(atNanoseconds: 20_000_000)  // ≈ (500, 0) /s
/// ```
public struct VelocityTracker: Sendable {
    /// The estimator this tracker reproduces.
    public let strategy: VelocityStrategy

    private var samples = SampleRing()

    /// Creates an empty tracker.
    ///
    /// - Parameter strategy: the platform estimator to reproduce; Android's default for
    ///   planar axes when omitted.
    public init(strategy: VelocityStrategy = .androidDefault) {
        self.strategy = strategy
    }

    /// The number of samples currently kept (at most 20).
    ///
    /// For the Android strategies this already reflects the 100 ms horizon, duplicate
    /// replacement and the 40 ms pause rule; Flutter keeps everything and filters when asked
    /// for a velocity.
    public var sampleCount: Int { samples.count }

    /// Adds the pointer's position at a time, applying the strategy's history rules.
    ///
    /// - Parameters:
    ///   - x: horizontal position.
    ///   - y: vertical position.
    ///   - nanoseconds: event time in nanoseconds; samples should arrive in time order.
    public mutating func add(x: Double, y: Double, atNanoseconds nanoseconds: Int64) {
        switch strategy {
        case .lsq2, .impulse:
            AndroidVelocityTracking.add(&samples, nanoseconds: nanoseconds, x: x, y: y)
        case .flutter:
            // Flutter's `addPosition` only writes the next ring slot.
            samples.append(nanoseconds: nanoseconds, x: x, y: y)
        }
    }

    /// Forgets every sample (Android's `clear()` on ACTION_DOWN; Flutter builds a new tracker
    /// per pointer-down).
    public mutating func clear() {
        samples.removeAll()
    }

    /// The velocity at the newest sample, as the platform's tracker reports it when queried
    /// right after that sample.
    ///
    /// - Returns: `nil` where Android reports no velocity (`std::nullopt`: no samples, a
    ///   single lsq2 sample, a degenerate fit). The ``VelocityStrategy/flutter`` strategy
    ///   never returns `nil`: it reports ``PanVector/zero`` wherever Flutter's `getVelocity`
    ///   does.
    public func velocity() -> PanVector? {
        switch strategy {
        case .lsq2:
            LeastSquaresEstimator.velocity(of: samples)
        case .impulse:
            ImpulseEstimator.velocity(of: samples)
        case .flutter:
            FlutterEstimator.velocity(of: FlutterEstimator.estimate(of: samples))
        }
    }

    /// The velocity the platform reports when asked at `nanoseconds`, for instance at the
    /// pointer's lift: ``velocity()`` gated by the 40 ms "pointer stopped" rule.
    ///
    /// Android erases the history when a lift comes more than 40 ms (strictly) after the
    /// last added sample, so the result is `nil`; Flutter's stopwatch reports a stopped
    /// pointer after more than 40 whole milliseconds, so the result is ``PanVector/zero``.
    ///
    /// - Parameter nanoseconds: the time of the query, on the samples' clock.
    public func velocity(atNanoseconds nanoseconds: Int64) -> PanVector? {
        guard !samples.isEmpty else {
            return velocity()
        }
        let newest = samples.newestTime
        switch strategy {
        case .lsq2, .impulse:
            if AndroidVelocityTracking.isStopped(lastSample: newest, now: nanoseconds) {
                return nil
            }
        case .flutter:
            if FlutterEstimator.isStopped(lastSample: newest, now: nanoseconds) {
                return .zero
            }
        }
        return velocity()
    }

    /// Flutter's full `VelocityEstimate` (with confidence, duration and offset), or `nil`
    /// when the tracker is empty; only meaningful for the ``VelocityStrategy/flutter``
    /// strategy's history.
    func flutterEstimate() -> FlutterEstimator.Estimate? {
        FlutterEstimator.estimate(of: samples)
    }

    /// Flutter's `IOSScrollViewFlingVelocityTracker` estimate over the same samples; meant
    /// for a tracker with the ``VelocityStrategy/flutter`` strategy (no history filtering).
    package func iOSScrollFlingVelocity() -> PanVector {
        IOSScrollFlingEstimator.velocity(of: samples)
    }
}
