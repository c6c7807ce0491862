import Foundation
import PanTrace
import Testing
import TestSupport
import TransitionEngine
@testable import PanReplay
@testable import PanTune

/// Each sheet library's configuration as its own code: what its API can carry is set, what it
/// hard-codes is kept at the library's value and said, and the code compiles or parses where a
/// compiler or parser is on this machine (Swift against the library's protocol as declared,
/// JavaScript with node, JSON with Foundation).
struct SheetEmitterTests {
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func emitted(_ library: String, _ overrides: [String: PresetValue] = [:]) throws -> SheetEmitter {
        SheetEmitter(preset: try DetentPreset(named: library, overrides: overrides), command: "pantrace presets \(library) --emit")
    }

    /// The requirements of `FloatingPanelBehavior` the code implements, as FloatingPanel's
    /// `Sources/Behavior.swift` declares them (there `@objc optional`, which Linux has not).
    static let floatingPanelStub = """
        import Foundation
        final class FloatingPanelController {}
        final class FloatingPanelState {}
        protocol FloatingPanelBehavior {
            var momentumProjectionRate: CGFloat { get }
            var removalInteractionVelocityThreshold: CGFloat { get }
            func redirectionalProgress(_ fpc: FloatingPanelController, from: FloatingPanelState, to: FloatingPanelState) -> CGFloat
            func shouldProjectMomentum(_ fpc: FloatingPanelController, to proposedState: FloatingPanelState) -> Bool
        }
        let behavior: any FloatingPanelBehavior = TunedPanelBehavior()
        print(behavior.momentumProjectionRate, TunedPanelBehavior.isRemovalInteractionEnabled)

        """

    @Test(.enabled(if: ExternalTool.swiftCompiler != nil, "no swiftc found ($SWIFTC, PATH, /usr/bin): the emitted Swift is not type-checked"))
    func floatingPanelsBehaviorTypeChecksAgainstItsProtocol() throws {
        let code = try Self.emitted("floatingpanel", ["projectionRate": .number(0.995), "projectMomentum": .choice("on"), "removal": .choice("on")])
            .code()
        #expect(code.contains("let momentumProjectionRate: CGFloat = 0.995"))
        #expect(code.contains("static let isRemovalInteractionEnabled = true"))
        let folder = try TemporaryFolder("emit-floatingpanel")
        // UIKit's CGFloat is Foundation's here; FloatingPanel's types are the stub's.
        let body = code.replacingOccurrences(of: "import FloatingPanel\n", with: "").replacingOccurrences(
            of: "import UIKit", with: "import Foundation")
        try Self.floatingPanelStub.write(toFile: folder.path + "/main.swift", atomically: true, encoding: .utf8)
        try body.write(toFile: folder.path + "/Tuned.swift", atomically: true, encoding: .utf8)
        let check = try ExternalTool.run(ExternalTool.swiftCompiler!, ["-typecheck", folder.path + "/main.swift", folder.path + "/Tuned.swift"])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test(.enabled(if: ExternalTool.swiftCompiler != nil, "no swiftc found ($SWIFTC, PATH, /usr/bin): the emitted Swift is not type-checked"))
    func panModalsPropertyTypeChecks() throws {
        let emitter = try Self.emitted("panmodal", ["snapMovementSensitivity": .number(0.5), "allowsDragToDismiss": .choice("off")])
        #expect(emitter.unshippable.map(\.key) == ["snapMovementSensitivity"])
        let code = emitter.code()
        #expect(code.contains("Cannot be set in this library: snapMovementSensitivity=0.5 (kept at 0.7)"))
        let folder = try TemporaryFolder("emit-panmodal")
        let body = code.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
        try (body + "\nlet allowed: Bool = TunedPanModal.allowsDragToDismiss\nprint(allowed)\n").write(
            toFile: folder.path + "/main.swift", atomically: true, encoding: .utf8)
        let check = try ExternalTool.run(ExternalTool.swiftCompiler!, ["-typecheck", folder.path + "/main.swift"])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test(.enabled(if: tool("node") != nil, "no node on PATH: the emitted JavaScript is not parsed"))
    func gorhomsHookParsesAndScalesTheVelocity() throws {
        for projection in [0.2, 0.1] {
            let code = try Self.emitted("gorhom", ["projection": .number(projection), "panDownToClose": .choice("on")]).code()
            #expect(code.contains("enablePanDownToClose: true"))
            // 0.2 s is gorhom's own: no hook then.
            #expect(code.contains("gestureEventsHandlersHook") == (projection != 0.2))
            let folder = try TemporaryFolder("emit-gorhom")
            try code.write(toFile: folder.path + "/tuned.mjs", atomically: true, encoding: .utf8)
            let check = try ExternalTool.run(Self.tool("node")!, ["--check", folder.path + "/tuned.mjs"])
            #expect(check.status == 0, "\(check.output)")
        }
    }

    @Test func vaulsPropsAreJSONAndItsConstantsAreSaid() throws {
        let emitter = try Self.emitted(
            "vaul",
            ["velocityThreshold": .number(0.3), "fastVelocity": .number(2.5), "snapToSequentialPoint": .choice("on"), "closeThreshold": .number(0.3)])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(emitter.code().utf8)) as? [String: Any])
        let props = try #require(object["props"] as? [String: Any])
        #expect(props["snapToSequentialPoint"] as? Bool == true && props["closeThreshold"] as? Double == 0.3)
        let cannot = try #require(object["cannot_set"] as? [[String: Any]])
        #expect(Set(cannot.compactMap { $0["key"] as? String }) == ["velocityThreshold", "fastVelocity"])
        // The shipped preset keeps vaul's own constants.
        #expect(emitter.preset.settings.first { $0.key == "velocityThreshold" }?.value == .number(0.4))
    }

    @Test func kotlinDartAndCSSCarryTheirSettings() throws {
        let material = try Self.emitted("mdc-bottomsheet", ["significantVelocity": .number(800), "hideThreshold": .number(0.4)]).code()
        #expect(material.contains("setSignificantVelocityThreshold(800)") && material.contains("HIDE_THRESHOLD"))
        let m3 = try Self.emitted("m3-sheet", ["positionalThreshold": .number(40)]).code()
        #expect(m3.contains("positionalThreshold = { with(density) { 40.0.dp.toPx() } }"))
        let compose = try Self.emitted("compose-anchored", ["velocityThreshold": .number(200), "positionalFraction": .number(0.3)])
        #expect(compose.unshippable.map(\.key) == ["velocityThreshold"] && compose.code().contains("distance * 0.3f"))
        let flutter = try Self.emitted("flutter-sheet", ["velocityTolerance": .number(20)]).code()
        #expect(flutter.contains("Tolerance(velocity: 20.0"))
        let css = try Self.emitted("css-scroll-snap", ["snapStopAlways": .choice("on"), "pixelsPerInch": .number(280)])
        #expect(css.code().contains("scroll-snap-stop: always;") && css.unshippable.map(\.key) == ["pixelsPerInch"])
        #expect(css.code().filter { $0 == "{" }.count == css.code().filter { $0 == "}" }.count)
    }

    /// Text from outside (a path, the command line) stays inside its comment whatever it holds.
    @Test func outsideTextCannotLeaveTheComment() throws {
        let preset = try DetentPreset(named: "css-scroll-snap")
        let emitter = SheetEmitter(preset: preset, command: "pantrace x */ .evil { color: red } /* \n.more {}")
        let code = emitter.code()
        #expect(!code.contains(".evil {") || code.contains("* / .evil"))
        #expect(code.split(separator: "\n").filter { $0.hasPrefix(".more") }.isEmpty)
    }

    @Test func aLanguageTheLibraryIsNotConfiguredInIsRefused() {
        let error = #expect(throws: ReplayError.self) { try SheetEmitter.check(.swift, library: .vaul) }
        #expect(error?.description == "cannot emit: vaul is configured in json: give --emit json")
        for library in DetentPresetName.allCases {
            #expect(throws: Never.self) { try SheetEmitter.check(SheetEmitter.language(of: library), library: library) }
        }
    }
}
