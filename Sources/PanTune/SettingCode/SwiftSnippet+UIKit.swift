internal import TransitionEngine

extension SwiftSnippet {
    /// The UIKit half: a `UIPercentDrivenInteractiveTransition` driven by a pan recognizer,
    /// completed as the preset's completion model says. It is not compiled here (there is no
    /// UIKit on Linux); every UIKit call it makes is documented API.
    static func uikitPart(_ preset: Preset) -> [String] {
        var lines = [
            "// MARK: - UIKit",
            "",
            "#if canImport(UIKit)",
            "import UIKit",
            "",
            "/// Drives a percent-driven interactive transition from a `UIPanGestureRecognizer` with the",
            "/// tuned rule. Set `begin` to start the transition (push, pop, present or dismiss) and add",
            "/// `handlePan(_:)` as the recognizer's action; progress is the pan's translation in its view",
            "/// over that view's size (\(preset.dragDescription)).",
            "final class TunedInteractiveTransition: UIPercentDrivenInteractiveTransition {",
            "    /// Starts the transition; called at `.began`.",
            "    var begin: () -> Void = {}",
            "    /// The transition's `transitionDuration(using:)`, s: the completion speeds below are",
            "    /// worked out against it. \(literal(preset.duration)) s is the preset's.",
            "    var transitionDuration: Double = \(literal(preset.duration))",
            "    private var tracker: TunedPanTracker?",
            "    private var origin: CFTimeInterval = 0",
            ""
        ]
        if case .displayLinkStepper = preset.completion {
            lines += ["    private var displayLink: CADisplayLink?", "    private var stepped = 0.0", ""]
        }
        lines += [
            "    @objc func handlePan(_ recognizer: UIPanGestureRecognizer) {",
            "        guard let view = recognizer.view else { return }",
            "        let translation = recognizer.translation(in: view)",
            "        let (tx, ty) = (Double(translation.x), Double(translation.y))",
            "        switch recognizer.state {",
            "        case .began:",
            "            origin = CACurrentMediaTime()",
            "            tracker = TunedPanTracker(width: Double(view.bounds.width), height: Double(view.bounds.height))",
            "            begin()",
            "            if let shown = tracker?.moved(time: 0, translationX: tx, translationY: ty, isChanged: false) { update(CGFloat(shown)) }",
            "        case .changed:",
            "            let time = CACurrentMediaTime() - origin",
            "            if let shown = tracker?.moved(time: time, translationX: tx, translationY: ty, isChanged: true) { update(CGFloat(shown)) }",
            "        case .ended, .cancelled:",
            "            guard let current = tracker else { return }",
            "            tracker = nil",
            "            let velocity = recognizer.velocity(in: view)",
            "            let outcome = current.released(",
            "                time: CACurrentMediaTime() - origin, translationX: tx, translationY: ty,",
            "                velocityX: Double(velocity.x), velocityY: Double(velocity.y), isCancelled: recognizer.state == .cancelled)",
            "            complete(outcome)",
            "        default:",
            "            break",
            "        }",
            "    }",
            ""
        ]
        lines += completion(preset.completion)
        lines += ["}", "#endif"]
        return lines
    }

    /// `complete(_:distance:)` and its helpers for one completion model.
    static func completion(_ model: CompletionModel) -> [String] {
        switch model {
        case .percentDriven(let percent):
            return [
                "    /// Percent-driven completion (docs/MODEL.md §4.1–§4.3).",
                "    private func complete(_ outcome: TunedTransition.Outcome) {"
            ] + percentDriven(percent, finishing: "outcome.finishes", indent: "        ") + ["    }"]
        case .fixedDuration(let fixed):
            return [
                "    /// A fixed \(literal(fixed.duration)) s completion along \(fixed.curve.name) (docs/MODEL.md §4.5): the",
                "    /// completion speed makes the rest of the timeline last that long.",
                "    private func complete(_ outcome: TunedTransition.Outcome) {",
                "        let remaining = abs((outcome.finishes ? 1 : 0) - outcome.startProgress)",
                "        completionSpeed = CGFloat(max(remaining * transitionDuration / \(literal(fixed.duration)), 0.001))",
                "        \(curveAssignment(fixed.curve))",
                "        outcome.finishes ? finish() : cancel()",
                "    }"
            ]
        case .displayLinkStepper(let stepper):
            return [
                "    /// A display-link stepper (docs/MODEL.md §4.4): a finish steps progress by \(literal(stepper.rate)) a frame",
                "    /// from the decided progress until it reaches \(literal(stepper.snapThreshold)), then `finish()`, which jumps to the end state.",
                "    private func complete(_ outcome: TunedTransition.Outcome) {",
                "        guard outcome.finishes else {"
            ] + percentDriven(stepper.cancel, finishing: "false", indent: "            ")
                + [
                    "            return",
                    "        }",
                    "        stepped = outcome.progress  // the steps count from the decided progress (docs/MODEL.md §4.4)",
                    "        let link = CADisplayLink(target: self, selector: #selector(step))",
                    "        link.add(to: .main, forMode: .common)",
                    "        displayLink = link",
                    "    }",
                    "",
                    "    @objc private func step() {",
                    "        stepped += \(literal(stepper.rate))",
                    "        guard stepped >= \(literal(stepper.snapThreshold)) else {",
                    "            update(CGFloat(stepped))",
                    "            return",
                    "        }",
                    "        displayLink?.invalidate()",
                    "        displayLink = nil"
                ] + percentDriven(stepper.cancel, finishing: "true", indent: "        ") + ["    }"]
        case .spring(let spring):
            return [
                "    /// A spring (docs/MODEL.md §4.7, §4.8) as the timing curve of the rest of the transition.",
                "    private func complete(_ outcome: TunedTransition.Outcome) {"
            ] + springLines(spring, indent: "        ") + ["        outcome.finishes ? finish() : cancel()", "    }"]
        case .hermite(let hermite):
            return [
                "    /// A velocity-matched cubic (docs/MODEL.md §4.10): u(τ) = m0(τ³ − 2τ² + τ) + (3τ² − 2τ³) is the",
                "    /// Bézier with control points (1/3, m0/3) and (2/3, 1), so it starts at the finger's speed.",
                "    private func complete(_ outcome: TunedTransition.Outcome) {",
                "        let delta = (outcome.finishes ? 1 : 0) - outcome.startProgress",
                "        let relative = delta == 0 ? -1 : outcome.progressVelocity / delta",
                "        if relative >= 0 {",
                "            var duration = min(max(\(literal(hermite.baseDuration)) * abs(delta), \(literal(hermite.minimumDuration))), \(literal(hermite.maximumDuration)))",
                "            if relative * duration > 3 { duration = 3 / relative }",
                "            let m0 = relative * duration",
                "            timingCurve = UICubicTimingParameters(",
                "                controlPoint1: CGPoint(x: 1.0 / 3, y: m0 / 3), controlPoint2: CGPoint(x: 2.0 / 3, y: 1))",
                "            completionSpeed = CGFloat(max(abs(delta) * transitionDuration / duration, 0.001))",
                "        } else {",
                "            // Moving away from the target: the spring instead."
            ] + springLines(hermite.fallback, indent: "            ") + ["        }", "        outcome.finishes ? finish() : cancel()", "    }"]
        case .flutterFling:
            preconditionFailure("refused by check(_:)")
        }
    }

    static func curveAssignment(_ curve: TimingCurve) -> String {
        switch curve {
        case .linear: return "completionCurve = .linear"
        case .easeIn: return "completionCurve = .easeIn"
        case .easeOut: return "completionCurve = .easeOut"
        case .easeInOut: return "completionCurve = .easeInOut"
        default:
            let b = curve.bezier
            return "timingCurve = UICubicTimingParameters(controlPoint1: CGPoint(x: \(literal(b.x1)), y: \(literal(b.y1))), "
                + "controlPoint2: CGPoint(x: \(literal(b.x2)), y: \(literal(b.y2))))  // \(curve.name)"
        }
    }

    /// `completionSpeed` and `completionCurve` for a percent-driven finish or cancel, then the call.
    static func percentDriven(_ model: PercentDrivenCompletion, finishing: String, indent: String) -> [String] {
        var lines: [String] = []
        let p = "percentComplete"
        let binding = model.cancelDuration == .complement && finishing != "true" ? "var" : "let"
        switch model.speed {
        case .constant(let speed): lines.append("\(indent)\(binding) speed = \(literal(speed))")
        case .oneMinusProgress: lines.append("\(indent)\(binding) speed = max(1 - Double(\(p)), 0.001)  // completionSpeed = 1 − percentComplete")
        case .linear(let intercept, let slope):
            lines.append("\(indent)\(binding) speed = max(\(literal(intercept)) + \(literal(slope)) * Double(\(p)), 0.001)")
        }
        if model.cancelDuration == .complement && finishing != "true" {
            lines += [
                "\(indent)// A cancel takes (1 − p)·D/s (cancelDuration = complement), assuming UIKit's cancel takes",
                "\(indent)// p·D/s, which Apple does not document (docs/MODEL.md §4.11 U1).",
                "\(indent)if !(\(finishing)) { speed *= Double(\(p)) / max(1 - Double(\(p)), 0.001) }"
            ]
        }
        lines.append("\(indent)completionSpeed = CGFloat(speed)")
        switch model.shape {
        case .resumeTimeline:
            lines.append("\(indent)// T1a: the rest of the timeline as UIKit plays it (whether completionCurve reshapes a UIView-block")
            lines.append("\(indent)// transition is not documented, docs/MODEL.md §4.11 U2); the default curve is kept.")
        case .completionCurve(let curve):
            lines.append("\(indent)\(curveAssignment(curve))  // T1b")
        }
        lines.append("\(indent)\(finishing == "true" ? "finish()" : finishing == "false" ? "cancel()" : "\(finishing) ? finish() : cancel()")")
        return lines
    }

    /// A `UISpringTimingParameters` for the completion, set as the transition's timing curve.
    static func springLines(_ model: SpringCompletion, indent: String) -> [String] {
        var lines = [
            "\(indent)let delta = (outcome.finishes ? 1 : 0) - outcome.startProgress"
        ]
        switch model.initialVelocity {
        case .matched:
            lines.append("\(indent)var relative = delta == 0 ? 0 : outcome.progressVelocity / delta  // UIKit's relative initial velocity")
            if let limit = model.relativeVelocityLimit {
                lines.append("\(indent)relative = min(max(relative, -\(literal(limit))), \(literal(limit)))")
            }
        case .zero:
            lines.append("\(indent)let relative = 0.0")
        }
        lines.append("\(indent)let initialVelocity = CGVector(dx: relative, dy: relative)")
        let ratio = model.allowsOverdamping ? model.spring.dampingRatio : min(model.spring.dampingRatio, 1)
        if let total = model.totalDuration {
            lines += [
                "\(indent)// A UIView spring: damping ratio \(literal(ratio)), lasting exactly \(literal(total)) s whatever the distance (docs/MODEL.md §4.7).",
                "\(indent)timingCurve = UISpringTimingParameters(dampingRatio: \(literal(ratio)), initialVelocity: initialVelocity)",
                "\(indent)completionSpeed = CGFloat(max(abs(delta) * transitionDuration / \(literal(total)), 0.001))"
            ]
        } else {
            let spring = model.spring
            var damping = "\(literal(spring.damping))"
            if let momentum = model.momentum {
                var fast = spring.withDampingRatio(momentum.dampingRatio)
                if !model.allowsOverdamping && fast.dampingRatio > 1 { fast = fast.withDampingRatio(1) }
                damping = "abs(outcome.axisVelocity) >= \(literal(momentum.speed)) ? \(literal(fast.damping)) : \(literal(spring.damping))"
                lines.append(
                    "\(indent)// Damping ratio \(literal(momentum.dampingRatio)) when the release is at least \(literal(momentum.speed)) pt/s, else \(literal(spring.dampingRatio))."
                )
            }
            lines += [
                "\(indent)// Mass 1, stiffness (2π/response)², damping 4π·ζ/response, response \(literal(spring.response)) s; UIKit works out the duration of a",
                "\(indent)// physical spring itself (Apple, UISpringTimingParameters). PanTrace ends it when within",
                "\(indent)// \(literal(model.epsilon)) pt of the target\(model.overshootClamping ? ", at its first arrival" : "").",
                "\(indent)timingCurve = UISpringTimingParameters(",
                "\(indent)    mass: \(literal(spring.mass)), stiffness: \(literal(spring.stiffness)), damping: \(damping), initialVelocity: initialVelocity)"
            ]
        }
        return lines
    }
}
