import Foundation
import PanTrace
import TestSupport
import GestureFixtures
import Testing
import TransitionEngine

@testable import PanReplay

/// The generated Swift and Kotlin: escaped, and checked as far as this machine allows.
struct DriverScriptTests {
    /// A recording whose identifier tries to end a comment, open a string and reorder the text.
    static func hostile() -> Trace {
        var trace = Fixtures.handMade(times: [0, 0.008, 0.016, 0.024, 0.032])
        trace.metadata.id = "evil\r\nfatalError()\u{2028}x\u{202E}cba\u{2066}\"*/$x\\"
        return trace
    }

    static let unsafe: [Character] = ["\r", "\n", "\u{2028}", "\u{2029}", "\u{202E}", "\u{2066}"]

    @Test(arguments: [DriverTarget.compose, .xcuitest, .maestro, .adb, .evemu, .webdriverTouch])
    func aHostileIdentifierNeverReachesTheSourceRaw(target: DriverTarget) throws {
        let trace = Self.hostile()
        let plan = try DriverPlan(trace: trace, target: target, configuration: .init(scale: 3))
        let text = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: 3)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(!line.contains { Self.unsafe.contains($0) && $0 != "\n" }, "\(target.rawValue): \(line)")
        }
        #expect(!text.contains("\r\nfatalError()"))
        if target != .webdriverTouch { #expect(text.contains("evil\\u{D}\\u{A}fatalError()")) }
    }

    @Test func literalsEscapeQuotesBackslashesTemplatesAndControls() {
        #expect(SourceText.literal("a\"b\\c\nd\u{202E}", in: .swift) == "a\\\"b\\\\c\\u{A}d\\u{202E}")
        #expect(SourceText.literal("a\"$b\\c\n\u{2066}", in: .kotlin) == "a\\\"\\$b\\\\c\\u000A\\u2066")
        #expect(SourceText.identifier("9 lives-é", prefix: "pantrace_") == "pantrace_9_lives__")
        // Above U+FFFF, Kotlin's four-digit escape takes a surrogate pair; Swift's takes the scalar.
        #expect(SourceText.literal("\u{F0000}", in: .kotlin) == "\\uDB80\\uDC00")
        #expect(SourceText.literal("\u{F0000}", in: .swift) == "\\u{F0000}")
        #expect(SourceText.literal("é 👋 $", in: .swift) == "é 👋 $")
    }

    /// A comment's text can neither end its comment nor open a nested one (Swift, Kotlin and
    /// Dart nest block comments), in a line comment and a block comment alike.
    @Test func commentsBreakEveryCommentDelimiter() {
        #expect(SourceText.comment("a */ b /* c") == "a * / b / * c")
        #expect(SourceText.comment("/*/") == "/ * /")
        #expect(SourceText.comment("**/") == "** /")
        #expect(SourceText.comment("x\n// y") == "x\\u{A}// y")
        #expect(SourceText.comment("a\u{2028}b\u{202E}\u{E000}") == "a\\u{2028}b\\u{202E}\\u{E000}")
        #expect(SourceText.comment("plain \"text\" \\ é") == "plain \"text\" \\ é")
    }

    /// The adb script with a hostile identifier (a newline, `$(…)`, backticks, `;`), run by a
    /// real `/bin/sh` with a stand-in `adb` first on `PATH`: the only command that runs is the
    /// swipe, and nothing the identifier holds.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "no /bin/sh: the emitted adb script is not run"))
    func theAdbScriptRunsOnlyItsSwipeWhateverTheIdentifierHolds() throws {
        try withTemporaryFolder("emit-adb") { folder in
            var trace = Fixtures.handMade(times: [0, 0.008, 0.016, 0.024, 0.032])
            let marker = folder + "/ran"
            trace.metadata.id = "a\ntouch \(marker)-1; $(touch \(marker)-2) `touch \(marker)-3` \u{2028}touch \(marker)-4 */ /*"
            let plan = try DriverPlan(trace: trace, target: .adb, configuration: .init(scale: 3))
            let script = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: 3)
            try Data(script.utf8).write(to: URL(fileURLWithPath: folder + "/swipe.sh"))
            let stub = "#!/bin/sh\necho \"$@\" >> \(folder)/adb-calls\n"
            try Data(stub.utf8).write(to: URL(fileURLWithPath: folder + "/adb"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/adb")
            let result = try ExternalTool.run("/usr/bin/env", ["PATH=\(folder):/usr/bin:/bin", "/bin/sh", folder + "/swipe.sh"])
            #expect(result.status == 0, "\(result.output)")
            let calls = try String(contentsOfFile: folder + "/adb-calls", encoding: .utf8)
            #expect(calls.split(separator: "\n").count == 1 && calls.hasPrefix("shell input swipe "), "\(calls)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("ran") }
            #expect(left.isEmpty, "the identifier ran: \(left)")
        }
    }

    /// The Maestro flow with a hostile identifier: its comment lines stay comments, so the
    /// document is the header, `---` and the one swipe, whatever the identifier holds.
    @Test func theMaestroFlowKeepsAHostileIdentifierInItsComment() throws {
        var trace = Fixtures.handMade(times: [0, 0.008, 0.016, 0.024, 0.032])
        trace.metadata.id = "a\n- launchApp\r\n- tapOn: \"Delete account\"\u{85}- back"
        let plan = try DriverPlan(trace: trace, target: .maestro, configuration: .init(scale: 3))
        let flow = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: 3)
        let code = flow.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(code.first == "appId: ${APP_ID}" && code.dropFirst().first == "---", "\(flow)")
        #expect(code.filter { $0.hasPrefix("- ") } == ["- swipe:"], "\(flow)")
        #expect(!flow.contains("\r") && !flow.contains("\u{85}"))
    }

    /// `swiftc`, as ``SwiftSnippetTests`` finds it.
    static var compiler: String? { ExternalTool.swiftCompiler }

    /// A stand-in for XCTest with the signatures of the documented API the generated code
    /// calls (Apple, XCUIAutomation: `XCUIElement.coordinate(withNormalizedOffset:)`,
    /// `XCUICoordinate.withOffset(_:)`,
    /// `press(forDuration:thenDragTo:withVelocity:thenHoldForDuration:)`, `XCUIGestureVelocity`).
    static let xctestStandIn = #"""
        // Type-check only: the documented XCTest / XCUIAutomation signatures the emitted code uses.
        public typealias CGFloat = Double
        public typealias TimeInterval = Double
        public struct CGVector { public var dx: CGFloat; public var dy: CGFloat; public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy } }
        public struct XCUIGestureVelocity: RawRepresentable, Hashable, Sendable {
            public var rawValue: CGFloat
            public init(rawValue: CGFloat) { self.rawValue = rawValue }
            public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
            public static let `default` = XCUIGestureVelocity(rawValue: 0)
        }
        @MainActor open class XCUICoordinate {
            public func withOffset(_ offsetVector: CGVector) -> XCUICoordinate { self }
            public func press(forDuration duration: TimeInterval, thenDragTo otherCoordinate: XCUICoordinate, withVelocity velocity: XCUIGestureVelocity, thenHoldForDuration holdDuration: TimeInterval) {}
        }
        @MainActor open class XCUIElement {
            public func coordinate(withNormalizedOffset normalizedOffset: CGVector) -> XCUICoordinate { XCUICoordinate() }
        }
        @MainActor open class XCUIApplication: XCUIElement {
            public override init() {}
            public func launch() {}
        }
        open class XCTestCase {
            public init() {}
            open func setUp() {}
        }
        """#

    @Test(.enabled(if: compiler != nil, "no swiftc found ($SWIFTC, PATH, /usr/bin): the emitted XCUITest is not type-checked"))
    func theXCUITestCodeAndSuiteTypeCheckAgainstTheDocumentedSignatures() throws {
        let swiftc = try #require(Self.compiler)
        try withTemporaryFolder("emit-xctest") { folder in
            try Self.xctestStandIn.write(toFile: folder + "/XCTest.swift", atomically: true, encoding: .utf8)
            let module = try ExternalTool.run(
                swiftc,
                ["-emit-module", "-module-name", "XCTest", "-parse-as-library", folder + "/XCTest.swift", "-o", folder + "/XCTest.swiftmodule"])
            try #require(module.status == 0, "\(module.output)")
            var traces = Array(DriverPlanTests.real.prefix(6))
            traces.append(Self.hostile())
            var cases: [RegressionSuite.Case] = []
            for (index, trace) in traces.enumerated() {
                let plan = try DriverPlan(trace: trace, target: .xcuitest, configuration: .init(scale: trace.metadata.screen.scale))
                let text = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: trace.metadata.screen.scale)
                let file = folder + "/Gesture\(index).swift"
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                let check = try ExternalTool.run(swiftc, ["-typecheck", "-swift-version", "6", "-I", folder, file])
                #expect(check.status == 0 && !check.output.contains("warning"), "\(trace.metadata.id): \(check.output)")
                cases.append(
                    .init(plan: plan, name: trace.metadata.id, expected: .finish, screen: trace.metadata.screen, scale: trace.metadata.screen.scale))
            }
            // The suite, with the one function its test target defines.
            let suite = try RegressionSuite.render(cases, target: .xcuitest)
            let hook = """
                extension PanTraceRegressionTests {
                    @MainActor func assertTransition(_ expected: PanTraceOutcome) {}
                }
                """
            try (suite + "\n" + hook + "\n").write(toFile: folder + "/Suite.swift", atomically: true, encoding: .utf8)
            let check = try ExternalTool.run(swiftc, ["-typecheck", "-swift-version", "5", "-I", folder, folder + "/Suite.swift"])
            #expect(check.status == 0, "\(check.output)")
            #expect(suite.components(separatedBy: "func test_").count - 1 == traces.count)
        }
    }

    /// `kotlinc`: `$KOTLINC`, else the first on `PATH` (Debian's `kotlin` package, 1.3.31 in
    /// bookworm, installs `/usr/bin/kotlinc`); nil when none.
    static let kotlinCompiler: String? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates = [environment["KOTLINC"]].compactMap { $0 }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/kotlinc" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Stand-ins with the documented signatures of the Compose test API the emitted Kotlin
    /// calls (developer.android.com, `androidx.compose.ui.test.TouchInjectionScope`:
    /// `down(position)`, `moveTo(position, delayMillis = eventPeriodMillis)`, `up(pointerId = 0)`,
    /// `cancel(delayMillis)`; `InjectionScope.advanceEventTime(durationMillis)`;
    /// `SemanticsNodeInteraction.performTouchInput`, `onRoot`), and of JUnit's `@Test`.
    static let composeStandIn = [
        "Offset.kt": """
        package androidx.compose.ui.geometry
        data class Offset(val x: Float, val y: Float)
        """,
        "Test.kt": """
        package androidx.compose.ui.test
        import androidx.compose.ui.geometry.Offset
        interface TouchInjectionScope {
            val eventPeriodMillis: Long get() = 16L
            fun advanceEventTime(durationMillis: Long = eventPeriodMillis)
            fun down(position: Offset)
            fun moveTo(position: Offset, delayMillis: Long = eventPeriodMillis)
            fun up(pointerId: Int = 0)
            fun cancel(delayMillis: Long = eventPeriodMillis)
        }
        interface SemanticsNodeInteraction
        interface SemanticsNodeInteractionsProvider { fun root(): SemanticsNodeInteraction }
        fun SemanticsNodeInteractionsProvider.onRoot(useUnmergedTree: Boolean = false): SemanticsNodeInteraction = root()
        fun SemanticsNodeInteraction.performTouchInput(block: TouchInjectionScope.() -> Unit): SemanticsNodeInteraction = this
        """,
        "Rule.kt": """
        package androidx.compose.ui.test.junit4
        interface ComposeContentTestRule : androidx.compose.ui.test.SemanticsNodeInteractionsProvider
        """,
        "JUnit.kt": """
        package org.junit
        annotation class Test
        """
    ]

    @Test(
        .enabled(if: kotlinCompiler != nil, "no kotlinc found ($KOTLINC, PATH; Debian: apt-get install kotlin): the emitted Kotlin is not compiled"))
    func theComposeCodeAndSuiteCompileWithKotlinc() throws {
        let kotlinc = try #require(Self.kotlinCompiler)
        try withTemporaryFolder("emit-kotlin") { folder in
            var files: [String] = []
            for (name, text) in Self.composeStandIn {
                try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
                files.append(folder + "/" + name)
            }
            var cases: [RegressionSuite.Case] = []
            for trace in DriverPlanTests.real.prefix(6) + [Self.hostile()] {
                let plan = try DriverPlan(trace: trace, target: .compose, configuration: .init(scale: trace.metadata.screen.scale))
                cases.append(
                    .init(plan: plan, name: trace.metadata.id, expected: .cancel, screen: trace.metadata.screen, scale: trace.metadata.screen.scale))
            }
            let suite = try RegressionSuite.render(cases, target: .compose)
            try suite.write(toFile: folder + "/Suite.kt", atomically: true, encoding: .utf8)
            files.append(folder + "/Suite.kt")
            let result = try ExternalTool.run(kotlinc, files + ["-d", folder + "/classes", "-nowarn"])
            #expect(result.status == 0, "kotlinc: \(result.output)")
            #expect(suite.components(separatedBy: "@Test").count - 1 == cases.count)
        }
    }

    @Test func theComposeCodeCarriesEveryEventWithItsDelay() throws {
        let trace = DriverPlanTests.real[0]
        let plan = try DriverPlan(trace: trace, target: .compose, configuration: .init(scale: trace.metadata.screen.scale))
        let text = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: trace.metadata.screen.scale)
        #expect(text.contains("fun TouchInjectionScope.pantrace_"))
        #expect(text.components(separatedBy: "moveTo(Offset(").count - 1 == plan.recorded.moves.count)
        #expect(text.contains("    down(Offset(") && text.hasSuffix("    up()\n}\n"))
        let delays = text.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "delayMillis = ") else { return nil }
            return Int(line[range.upperBound...].dropLast(2))
        }
        let total = delays.reduce(0, +)
        #expect(abs(Double(total) - (plan.recorded.moves.last!.time - plan.recorded.down.time) * 1000) <= 1)
    }
}
