// EngineBench: frames per second and heap allocations per frame of the engine's hot path.
//
// Run in release: `swift run -c release EngineBench`. Single-threaded (one core). For each
// preset it replays a synthetic swipe, then evaluates full frames (rendered progress +
// layers) at times spread over the completion, with `snapshot(at:)` (the hot path) and with
// `frameState(at:)` (the baseline: a fresh `[Layer]` array and a Codable `FrameState` per
// frame). Allocations are counted by MallocCounter, which interposes malloc for the process.

import MallocCounter
import TransitionEngine

let screen = Size(width: 390, height: 844)
let minimumDuration = Duration.seconds(1)
let batch = 200_000

/// A release in the middle of a confident swipe toward finish, on the preset's own axis.
func releasedTransition(_ name: PresetName) -> InteractiveTransition {
    let preset = Preset(name)
    var transition = InteractiveTransition(preset: preset, screen: screen, displayFrameRate: 120)
    let mapping = preset.mapping(screen: screen)
    let direction = mapping.sign
    func vector(_ along: Double) -> Vector2 {
        mapping.axis == .x ? Vector2(x: along, y: 0) : Vector2(x: 0, y: along)
    }
    let distance = mapping.distance
    for step in 0...10 {
        let along = direction * distance * 0.06 * Double(step)
        _ = transition.handle(
            GestureInput(
                time: Double(step) * 0.016, phase: step == 0 ? .began : .changed, translation: vector(along), velocity: vector(direction * 400)))
    }
    let lift = direction * distance * 0.6
    _ = transition.handle(GestureInput(time: 0.17, phase: .ended, translation: vector(lift), velocity: vector(direction * 600)))
    return transition
}

struct Measurement {
    var framesPerSecond: Double
    var allocationsPerFrame: Double
}

/// Runs `body` over batches of frames for at least a second; returns frames/s and allocations/frame.
func measure(span: Double, _ body: (Double) -> Double) -> (Measurement, Double) {
    var checksum = 0.0
    var frames = 0
    var allocations: UInt = 0
    let clock = ContinuousClock()
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        let before = mc_allocations()
        for index in 0..<batch {
            let time = 0.17 + span * Double(index % 4096) / 4096
            checksum += body(time)
        }
        allocations += mc_allocations() - before
        frames += batch
        elapsed = clock.now - start
    } while elapsed < minimumDuration
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return (Measurement(framesPerSecond: Double(frames) / seconds, allocationsPerFrame: Double(allocations) / Double(frames)), checksum)
}

func format(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(rounded)) : "\(rounded)"
}

func millions(_ value: Double) -> String { format(value / 1e6, digits: 2) + " M" }

var checksum = 0.0
print("## EngineBench — frame evaluation (one core, release build)")
print("")
print("| preset | completion | hot frames/s | hot allocs/frame | baseline frames/s | baseline allocs/frame | speed-up |")
print("|---|---|---:|---:|---:|---:|---:|")
var slowestHot = Double.infinity
var worstHotAllocations = 0.0
for name in PresetName.allCases {
    let transition = releasedTransition(name)
    let span = max(transition.trajectory?.duration ?? 0.5, 0.05) * 1.2
    let (hot, hotSum) = measure(span: span) { time in
        let frame = transition.snapshot(at: time)
        var sum = frame.renderedProgress
        for layer in frame.layers {
            sum += layer.scale + layer.translation.x + layer.translation.y + (layer.mask?.radius ?? 0)
        }
        return sum
    }
    let (baseline, baselineSum) = measure(span: span) { time in
        let frame = transition.frameState(at: time)
        var sum = frame.renderedProgress
        for layer in frame.layers {
            sum += layer.scale + layer.translation.x + layer.translation.y + (layer.mask?.radius ?? 0)
        }
        return sum
    }
    checksum += hotSum + baselineSum
    let model = Preset(name).completion.identifier
    let analytic = Preset(name).completion.isFrameRateDependent ? " (120 Hz stepper)" : ""
    if !Preset(name).completion.isFrameRateDependent {
        slowestHot = min(slowestHot, hot.framesPerSecond)
    }
    worstHotAllocations = max(worstHotAllocations, hot.allocationsPerFrame)
    print(
        "| \(name.rawValue) | \(model)\(analytic) | \(millions(hot.framesPerSecond)) | \(format(hot.allocationsPerFrame, digits: 3)) | \(millions(baseline.framesPerSecond)) | \(format(baseline.allocationsPerFrame, digits: 3)) | \(format(hot.framesPerSecond / baseline.framesPerSecond, digits: 1))× |"
    )
}

// The tuner's inner loop: decide one release under many policies.
let release = ReleaseState(
    progress: 0.42, velocity: Vector2(x: 350, y: 20), axisVelocity: 350, crossVelocity: 20, distance: 390, phase: .ended, time: 0.3,
    lastMoveTime: 0.29)
let (decisions, decisionSum) = measure(span: 1) { time in
    let theta = 0.3 + (time - 0.17) * 0.4
    let policy = DecisionPolicy(
        rule: .projection(decelerationRate: 0.998, threshold: Threshold(theta), isExact: false), gates: VelocityGates(stopTime: 0.04))
    let decision = policy.decide(release)
    return decision.margin + decision.target
}
checksum += decisionSum
print("")
print("| tuner inner loop | decisions/s | allocs/decision |")
print("|---|---:|---:|")
print("| `DecisionPolicy.decide` (D5 + stop gate) | \(millions(decisions.framesPerSecond)) | \(format(decisions.allocationsPerFrame, digits: 3)) |")
print("")
print(
    "slowest analytic preset: \(millions(slowestHot)) frames/s (target ≥ 5 M); worst hot-path allocations/frame: \(format(worstHotAllocations, digits: 3)) (target 0)"
)
print("checksum \(checksum)")
