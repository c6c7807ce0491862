import PanTrace
import GestureFixtures
import Testing
import TransitionEngine

@testable import PanReplay

/// Text from a recording stays inside its comment or string by the target language's own
/// lexical rules: Kotlin and Swift nest block comments, so an identifier holding `/*` followed
/// by another holding `*/ … @Test fun …` must not let code out. The generated suite, read by a
/// lexer that follows those rules, must have the same code outside its comments and strings as
/// the suite of harmless names.
struct GeneratedCodeLexingTests {
    /// What is left of `source` outside comments and string literals, lexed as Kotlin or Swift
    /// (both: `//` to the end of the line; `/* … */` nesting; `"…"` with backslash escapes), or
    /// nil when a comment or string is left open or a Kotlin template (`$`) runs inside a string.
    static func code(of source: String) -> String? {
        let scalars = Array(source.unicodeScalars)
        var code = String.UnicodeScalarView()
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "/" && at(1) == "/" {
                while index < scalars.count && scalars[index] != "\n" { index += 1 }
            } else if scalar == "/" && at(1) == "*" {
                var depth = 0
                repeat {
                    if at(0) == "/" && at(1) == "*" {
                        depth += 1
                        index += 2
                    } else if at(0) == "*" && at(1) == "/" {
                        depth -= 1
                        index += 2
                    } else if index < scalars.count {
                        index += 1
                    } else {
                        return nil
                    }
                } while depth > 0
                code.append(" ")
            } else if scalar == "\"" {
                index += 1
                while true {
                    guard let next = at(0), next != "\n" else { return nil }
                    if next == "\\" {
                        index += 2
                        continue
                    }
                    if next == "$" { return nil }
                    index += 1
                    if next == "\"" { break }
                }
                code.append(contentsOf: "\"\"".unicodeScalars)
            } else {
                code.append(scalar)
                index += 1
            }
        }
        return String(code)
    }

    static func suite(_ target: DriverTarget, names: [String]) throws -> String {
        let trace = Fixtures.handMade(times: [0, 0.008, 0.016, 0.024, 0.032])
        let plan = try DriverPlan(trace: trace, target: target, configuration: .init(scale: 3))
        let cases = names.map { RegressionSuite.Case(plan: plan, name: $0, expected: .finish, screen: trace.metadata.screen, scale: 3) }
        return try RegressionSuite.render(cases, target: target)
    }

    @Test(arguments: [DriverTarget.compose, .xcuitest])
    func hostileNamesNeverLeaveTheirCommentsOrStrings(target: DriverTarget) throws {
        let hostile = ["a/*", "b*/ @Test fun c() { Runtime.getRuntime().exec(\"x\") } /*", "d\"${e}\\(f)\"", "g\n}\nfun h() {"]
        // The same names with every character but letters and digits an underscore: the
        // generated functions are named alike, and nothing is left to escape.
        let plain = hostile.map { SourceText.identifier($0, prefix: "") }
        let hostileCode = try #require(Self.code(of: try Self.suite(target, names: hostile)), "a comment or string is left open")
        let plainCode = try #require(Self.code(of: try Self.suite(target, names: plain)))
        #expect(hostileCode == plainCode)
    }

    /// The lexer itself: the nested comment that the old escaping let through is caught.
    @Test func theLexerSeesANestedCommentEscape() {
        #expect(Self.code(of: "/** a/* */ fun x() {}") == nil)
        #expect(Self.code(of: "/** a/ * */ fun x() {}") == "  fun x() {}")
        #expect(Self.code(of: "val s = \"${x}\"") == nil)
        #expect(Self.code(of: "val s = \"\\${x}\"") == "val s = \"\"")
    }
}
