import Foundation
import PanTrace
import Testing
import TestSupport
import TransitionEngine
@testable import PanReplay
@testable import PanTune

/// The emitted Swift, compiled on Linux with the toolchain's own `swiftc` and run over every
/// bundled recording: it must decide each exactly as the replayer does.
struct SwiftSnippetTests {
    static let compiler = ExternalTool.swiftCompiler

    /// Every preset with its defaults (`best` with the recorded velocity the snippet reads),
    /// and settings that reach the other branches: the lift, a rubber band, the strict
    /// comparison, the cancelled phase, a dead-band, the magnitude mapping driven vertically.
    static let configurations: [(preset: String, overrides: [String: PresetValue])] = {
        typealias Setting = (preset: String, overrides: [String: PresetValue])
        let recorded: [String: PresetValue] = ["velocity": .choice("recorded")]
        var settings: [Setting] = PresetName.allCases.map { name in (name.rawValue, name == .best ? recorded : [:]) }
        var lift: [String: PresetValue] = recorded
        lift["direction"] = .choice("down")
        lift["releaseProgress"] = .choice("changed")
        lift["threshold"] = .number(0.3)
        settings.append(("best", lift))
        var gated: [String: PresetValue] = recorded
        gated["direction"] = .choice("down")
        gated["stopTime"] = .number(0.008)
        gated["decelerationRate"] = .number(0.99)
        settings.append(("best", gated))
        settings.append(("zoom", ["direction": .choice("down"), "threshold": .number(0.2)]))
        settings.append(("drawer", ["direction": .choice("down"), "travel": .number(300), "travelUnit": .choice("points")]))
        settings.append(("swipe-dismiss", ["cancelledPhase": .choice("cancel"), "threshold": .number(0.3)]))
        var band: [String: PresetValue] = ["direction": .choice("down"), "rubberBand": .number(0.55)]
        band["comparison"] = .choice("greaterThan")
        band["threshold"] = .number(0.4)
        settings.append(("uikit-percent", band))
        settings.append(("uikit-percent", ["direction": .choice("up"), "releaseProgress": .choice("lift"), "threshold": .number(0)]))
        settings.append(("parallax-push", ["direction": .choice("down"), "deadBand": .number(300)]))
        settings.append(("parallax-push", ["direction": .choice("up")]))
        return settings
    }()

    static var recordings: String { Repository.recordings }

    /// The decision part of a snippet (everything before the UIKit part), inside `enum name`,
    /// with a function that feeds one gesture's samples and returns whether it finishes.
    static func wrapped(_ snippet: String, as name: String) throws -> String {
        let marker = try #require(snippet.range(of: "// MARK: - UIKit"))
        return """
            enum \(name) {
            \(snippet[..<marker.lowerBound])
            static func finishes(width: Double, height: Double, samples: [Sample]) -> Bool {
                var tracker = TunedPanTracker(width: width, height: height)
                for sample in samples {
                    switch sample.phase {
                    case "began": _ = tracker.moved(time: sample.t, translationX: sample.tx, translationY: sample.ty, isChanged: false)
                    case "changed": _ = tracker.moved(time: sample.t, translationX: sample.tx, translationY: sample.ty, isChanged: true)
                    default:
                        return tracker.released(
                            time: sample.t, translationX: sample.tx, translationY: sample.ty, velocityX: sample.vx, velocityY: sample.vy,
                            isCancelled: sample.phase == "cancelled"
                        ).finishes
                    }
                }
                return false
            }
            }

            """
    }

    static let driver = """
        struct Sample { var phase: Substring; var t, tx, ty, vx, vy: Double }
        // Input: "G case width height", then "S phase t tx ty vx vy" lines, then "E"; output: 1 (finish) or 0 per gesture.
        var current: (index: Int, width: Double, height: Double)?
        var samples: [Sample] = []
        while let line = readLine() {
            let f = line.split(separator: " ")
            switch f[0] {
            case "G":
                current = (Int(f[1])!, Double(f[2])!, Double(f[3])!)
                samples = []
            case "S":
                samples.append(Sample(phase: f[1], t: Double(f[2])!, tx: Double(f[3])!, ty: Double(f[4])!, vx: Double(f[5])!, vy: Double(f[6])!))
            default:
                let c = current!
                print(cases[c.index](c.width, c.height, samples) ? 1 : 0)
            }
        }

        """

    @Test(.enabled(if: compiler != nil, "no swiftc found ($SWIFTC, PATH, /usr/bin): the emitted Swift is not compiled"))
    func theSnippetDecidesEveryBundledRecordingAsReplayDoes() throws {
        let swiftc = try #require(Self.compiler)
        let folder = try TemporaryFolder.path("pantrace-snippet")
        let corpus = TraceCorpus.load(paths: Repository.bundled)
        #expect(corpus.failures.isEmpty && corpus.entries.count >= 80)

        // A tuned snippet too, exactly as `tune --emit swift` writes it.
        let grid = try TuningGrid(axes: [GridAxis(parsing: "threshold=0.2:0.8:0.05")])
        let tuner = try Tuner(presetNamed: "swipe-dismiss", grid: grid)
        let tuned = try tuner.run(on: corpus)
        let tunedParameters = tuner.space.parameters(atPoint: tuned.bestPoint)
        let tunedSnippet = try SwiftSnippet.emit(tunedParameters, provenance: tuned.provenance(command: "test", paths: ["recordings"]))
        #expect(tunedSnippet.contains("// Accuracy \(TuningResult.percent(tuned.best.accuracy))"))

        var parameters = try Self.configurations.map { try ReplayParameters(presetNamed: $0.preset, overrides: $0.overrides) }
        parameters.append(tunedParameters)
        var cases = ""
        for (index, setting) in parameters.enumerated() {
            let snippet = index == parameters.count - 1 ? tunedSnippet : try SwiftSnippet.emit(setting, provenance: ["test"])
            cases += try Self.wrapped(snippet, as: "Case\(index)")
        }
        cases +=
            "let cases: [(Double, Double, [Sample]) -> Bool] = [" + parameters.indices.map { "Case\($0).finishes" }.joined(separator: ", ") + "]\n"
        // The tuned file as written, whole: its UIKit part must drop out cleanly where UIKit is missing.
        try tunedSnippet.write(toFile: folder + "/Tuned.swift", atomically: true, encoding: .utf8)
        try cases.write(toFile: folder + "/Cases.swift", atomically: true, encoding: .utf8)
        try Self.driver.write(toFile: folder + "/main.swift", atomically: true, encoding: .utf8)
        let build = try ExternalTool.run(swiftc, [folder + "/main.swift", folder + "/Cases.swift", folder + "/Tuned.swift", "-o", folder + "/decide"])
        try #require(build.status == 0, "swiftc failed: \(build.output)")

        var input = ""
        var expected: [Bool] = []
        var labels: [String] = []
        for (index, setting) in parameters.enumerated() {
            for entry in corpus.entries {
                let track = try GestureTrack(trace: entry.trace, velocity: .recorded)
                let summary = try Replayer(trace: entry.trace, configuration: .init(parameters: setting)).summary
                expected.append(summary.decision == .finish)
                labels.append("\(setting.preset.name.rawValue) #\(index): \(entry.file)")
                input += "G \(index) \(track.screen.width) \(track.screen.height)\n"
                for sample in track.inputs {
                    let t = sample.translation, v = sample.velocity
                    input += "S \(sample.phase.rawValue) \(sample.time) \(t.x) \(t.y) \(v.x) \(v.y)\n"
                }
                input += "E\n"
            }
        }
        let decided = try ExternalTool.run(folder + "/decide", [], input: Data(input.utf8))
        try #require(decided.status == 0, "\(decided.output)")
        let answers = decided.output.split(separator: "\n").map { $0 == "1" }
        try #require(answers.count == expected.count)
        for index in expected.indices {
            #expect(answers[index] == expected[index], "\(labels[index])")
        }
        // Both outcomes occur, so the comparison could fail either way.
        #expect(expected.contains(true) && expected.contains(false))
    }

    /// A stand-in for UIKit with the signatures of the documented API the snippet calls, as
    /// Apple's reference pages give them; Linux has no UIKit, so this checks names, labels and
    /// types, not behaviour.
    static let uikitStandIn = #"""
        // A stand-in with the signatures of the documented UIKit API the snippet uses (type-check only).
        @_exported import Foundation
        public typealias CGFloat = Double
        public struct CGPoint { public var x: CGFloat; public var y: CGFloat; public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y } }
        public struct CGVector { public var dx: CGFloat; public var dy: CGFloat; public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy } }
        public struct CGRect { public var width: CGFloat = 390; public var height: CGFloat = 844 }
        public typealias CFTimeInterval = Double
        public func CACurrentMediaTime() -> CFTimeInterval { 0 }
        open class UIView { public var bounds = CGRect() }
        open class UIGestureRecognizer {
            public enum State { case possible, began, changed, ended, cancelled, failed }
            public var state: State = .possible
            public var view: UIView?
        }
        open class UIPanGestureRecognizer: UIGestureRecognizer {
            open func translation(in view: UIView?) -> CGPoint { CGPoint(x: 0, y: 0) }
            open func velocity(in view: UIView?) -> CGPoint { CGPoint(x: 0, y: 0) }
        }
        public enum UIViewAnimationCurve { case easeInOut, easeIn, easeOut, linear }
        extension UIView { public typealias AnimationCurve = UIViewAnimationCurve }
        public protocol UITimingCurveProvider {}
        open class UICubicTimingParameters: UITimingCurveProvider {
            public init(controlPoint1: CGPoint, controlPoint2: CGPoint) {}
        }
        open class UISpringTimingParameters: UITimingCurveProvider {
            public init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {}
            public init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {}
        }
        open class UIPercentDrivenInteractiveTransition {
            public init() {}
            open var completionSpeed: CGFloat = 1
            open var completionCurve: UIView.AnimationCurve = .easeInOut
            open var timingCurve: (any UITimingCurveProvider)?
            open var percentComplete: CGFloat { 0 }
            open func update(_ percentComplete: CGFloat) {}
            open func finish() {}
            open func cancel() {}
        }
        public struct Selector { public init(_ name: String) {} }
        open class CADisplayLink {
            public init(target: Any, selector sel: Selector) {}
            open func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {}
            open func invalidate() {}
        }
        """#

    /// The UIKit part type-checks against the stand-in for every preset. Linux has no
    /// Objective-C runtime, so `@objc` is dropped and `#selector(step)` becomes a stand-in
    /// `Selector` first.
    @Test(.enabled(if: compiler != nil, "no swiftc found ($SWIFTC, PATH, /usr/bin): the UIKit part is not type-checked"))
    func theUIKitPartTypeChecksAgainstTheDocumentedSignatures() throws {
        let swiftc = try #require(Self.compiler)
        let folder = try TemporaryFolder.path("pantrace-uikit")
        try Self.uikitStandIn.write(toFile: folder + "/UIKit.swift", atomically: true, encoding: .utf8)
        let module = try ExternalTool.run(
            swiftc, ["-emit-module", "-module-name", "UIKit", "-parse-as-library", folder + "/UIKit.swift", "-o", folder + "/UIKit.swiftmodule"])
        try #require(module.status == 0, "\(module.output)")
        var settings = try Self.configurations.map { try ReplayParameters(presetNamed: $0.preset, overrides: $0.overrides) }
        settings.append(
            try ReplayParameters(
                presetNamed: "best", overrides: ["velocity": .choice("recorded"), "completionModel": .choice("hermite")]))
        settings.append(
            try ReplayParameters(
                presetNamed: "swipe-dismiss",
                overrides: [
                    "cancelDuration": .choice("complement"), "completionMode": .choice("curve"), "completionCurve": .choice("materialStandard")
                ]))
        for (index, setting) in settings.enumerated() {
            let snippet = try SwiftSnippet.emit(setting, provenance: [])
                .replacingOccurrences(of: "@objc ", with: "")
                .replacingOccurrences(of: "#selector(step)", with: "Selector(\"step\")")
            let file = folder + "/Snippet\(index).swift"
            try snippet.write(toFile: file, atomically: true, encoding: .utf8)
            let check = try ExternalTool.run(swiftc, ["-typecheck", "-I", folder, file])
            #expect(check.status == 0 && !check.output.contains("warning"), "\(setting.preset.name.rawValue): \(check.output)")
        }
    }

    /// Paths, names and tags that try to leave their comment: a newline, a lone CR, U+2028 and
    /// U+2029, NEL, bidi overrides and isolates (CVE-2021-42574), NUL, an escape sequence, quotes.
    static let hostileProvenance = [
        "Tuned on: /tmp/a\nfunc max(_ a: Double, _ b: Double) -> Double { a }",
        "Command: pantrace tune 'lone\rCR' enum InjectedByCR {}",
        "Tag: sep\u{2028}struct InjectedBySeparator {}\u{2029}enum InjectedByParagraph {}",
        "Tag: next\u{85}enum InjectedByNEL {}",
        "Name: bidi \u{202E}}\u{2066}{ \u{2069}\u{200F}\u{FEFF}",
        "quote \" and \\ backslash \0 nul \u{1B}[2J \u{7F}"
    ]

    /// Generated code is safe by construction: hostile provenance leaves the code lines as
    /// they are, the file type-checks (the UIKit part against the stand-in), and its module
    /// declares exactly the symbols of a plain run. Each escaped line is also a Swift string
    /// literal that reads back as the original.
    @Test(.enabled(if: compiler != nil, "no swiftc found ($SWIFTC, PATH, /usr/bin): the hostile-provenance snippet is not compiled"))
    func hostileProvenanceStaysInItsCommentsAndDeclaresNothingMore() throws {
        let swiftc = try #require(Self.compiler)
        let folder = try TemporaryFolder.path("pantrace-hostile")
        try Self.uikitStandIn.write(toFile: folder + "/UIKit.swift", atomically: true, encoding: .utf8)
        let module = try ExternalTool.run(
            swiftc, ["-emit-module", "-module-name", "UIKit", "-parse-as-library", folder + "/UIKit.swift", "-o", folder + "/UIKit.swiftmodule"])
        try #require(module.status == 0, "\(module.output)")
        let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: ["threshold": .number(0.35)])
        let plain = try SwiftSnippet.emit(parameters, provenance: ["plain"])
        let injected = try SwiftSnippet.emit(parameters, provenance: Self.hostileProvenance)
        func code(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("//") } }
        #expect(code(injected) == code(plain))
        #expect(!injected.unicodeScalars.contains { $0.properties.generalCategory == .format || ($0.value < 0x20 && $0 != "\n") })
        #expect(!injected.unicodeScalars.contains { [0x7F, 0x85, 0x2028, 0x2029].contains($0.value) })

        func symbols(_ snippet: String, _ name: String) throws -> Set<String> {
            let file = folder + "/\(name).swift"
            let linuxable = snippet.replacingOccurrences(of: "@objc ", with: "").replacingOccurrences(
                of: "#selector(step)", with: "Selector(\"step\")")
            try linuxable.write(toFile: file, atomically: true, encoding: .utf8)
            let graphs = folder + "/\(name)-symbols"
            try FileManager.default.createDirectory(atPath: graphs, withIntermediateDirectories: true)
            let build = try ExternalTool.run(
                swiftc,
                [
                    "-emit-module", "-module-name", name, "-parse-as-library", "-I", folder, file, "-o", folder + "/\(name).swiftmodule",
                    "-emit-symbol-graph", "-emit-symbol-graph-dir", graphs, "-symbol-graph-minimum-access-level", "private"
                ])
            #expect(build.status == 0 && !build.output.contains("warning"), "\(name): \(build.output)")
            let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: graphs + "/\(name).symbols.json")))
            let list = ((graph as? [String: Any])?["symbols"] as? [[String: Any]]) ?? []
            // What is declared, and where: the kind and the path within the module (the
            // precise identifiers carry the module's name).
            return Set(
                list.map { symbol in
                    let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
                    return kind + " " + ((symbol["pathComponents"] as? [String]) ?? []).joined(separator: ".")
                })
        }
        let plainSymbols = try symbols(plain, "Plain")
        #expect(plainSymbols.count > 10)
        #expect(try symbols(injected, "Injected") == plainSymbols)

        // The same escaping makes a string literal that reads back as the original.
        var program = "let values: [String] = [\n"
        for line in Self.hostileProvenance { program += "    \"\(SourceText.literal(line, in: .swift))\",\n" }
        program += "]\nfor value in values { print(value.unicodeScalars.map { String($0.value) }.joined(separator: \" \")) }\n"
        try program.write(toFile: folder + "/literals.swift", atomically: true, encoding: .utf8)
        let compiled = try ExternalTool.run(swiftc, [folder + "/literals.swift", "-o", folder + "/literals"])
        try #require(compiled.status == 0, "\(compiled.output)")
        let printed = try ExternalTool.run(folder + "/literals", []).output.split(separator: "\n").map(String.init)
        #expect(printed == Self.hostileProvenance.map { $0.unicodeScalars.map { String($0.value) }.joined(separator: " ") })
    }

    @Test(arguments: ["lsq2", "impulse", "flutter"])
    func anEstimatedVelocityIsRefusedWithTheWayOut(source: String) throws {
        let parameters = try ReplayParameters(presetNamed: "uikit-percent", overrides: ["velocity": .choice(source)])
        let error = #expect(throws: ReplayError.self) { try SwiftSnippet.emit(parameters, provenance: []) }
        #expect(error?.description.contains("velocity=\(source)") == true)
        #expect(error?.description.contains("--set velocity=recorded") == true)
        // best's default is lsq2: refused as it stands, emitted with the recorded velocity.
        #expect(throws: ReplayError.self) { try SwiftSnippet.emit(ReplayParameters(presetNamed: "best"), provenance: []) }
        #expect(throws: Never.self) {
            try SwiftSnippet.emit(ReplayParameters(presetNamed: "best", overrides: ["velocity": .choice("recorded")]), provenance: [])
        }
    }

    @Test
    func theSnippetCarriesItsConstantsAndCompletion() throws {
        let spring = try SwiftSnippet.emit(
            ReplayParameters(presetNamed: "best", overrides: ["velocity": .choice("recorded")]), provenance: ["from a test"])
        #expect(spring.hasPrefix("// Generated by pantrace"))
        #expect(spring.contains("// from a test"))
        #expect(spring.contains("UISpringTimingParameters(\n") && spring.contains("initialVelocity: initialVelocity"))
        #expect(spring.contains("abs(outcome.axisVelocity) >= 1200.0"))
        #expect(spring.contains("if release.sinceLastMove > 0.04 {"))
        let bounce = try SwiftSnippet.emit(ReplayParameters(presetNamed: "bounce-present"), provenance: [])
        #expect(bounce.contains("UISpringTimingParameters(dampingRatio: 0.6, initialVelocity: initialVelocity)"))
        #expect(bounce.contains("let relative = 0.0"))
        let dismiss = try SwiftSnippet.emit(ReplayParameters(presetNamed: "swipe-dismiss", overrides: ["threshold": .number(0.35)]), provenance: [])
        #expect(dismiss.contains("return outcome(p0 > 0.35, byVelocity: false)  // D1"))
        #expect(dismiss.contains("max(1 - Double(percentComplete), 0.001)"))
        #expect(dismiss.contains("#if canImport(UIKit)") && dismiss.hasSuffix("#endif\n"))
        let hermite = try SwiftSnippet.emit(
            ReplayParameters(presetNamed: "best", overrides: ["velocity": .choice("recorded"), "completionModel": .choice("hermite")]), provenance: []
        )
        #expect(hermite.contains("UICubicTimingParameters("))
        let drawer = try SwiftSnippet.emit(ReplayParameters(presetNamed: "drawer"), provenance: [])
        #expect(drawer.contains("CADisplayLink(target: self, selector: #selector(step))"))
    }
}
