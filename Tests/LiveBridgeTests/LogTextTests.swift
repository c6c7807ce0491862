import PanLiveWire
import Testing

@testable import LiveBridge

struct LogTextTests {
    @Test(arguments: [
        ("plain ascii, stays", "plain ascii, stays"),
        ("\u{1b}]0;pwned\u{07}", "\\x1b]0;pwned\\x07"),
        ("\u{1b}[2J\u{1b}[H", "\\x1b[2J\\x1b[H"),
        ("a\nb\rc\td", "a\\x0ab\\x0dc\\x09d"),
        ("nul \u{0} del \u{7f}", "nul \\x00 del \\x7f"),
        ("c1 csi \u{9b}31m", "c1 csi \\x9b31m"),
        ("bidi \u{202e}gnp.exe", "bidi \\u{202e}gnp.exe"),
        ("isolate \u{2066}x\u{2069}", "isolate \\u{2066}x\\u{2069}"),
        ("lines \u{2028}\u{2029}", "lines \\u{2028}\\u{2029}"),
        ("zero\u{200b}width\u{feff}", "zero\\u{200b}width\\u{feff}"),
        ("back\\slash \\x1b", "back\\\\slash \\\\x1b"),
        ("café ✓ 日本", "café ✓ 日本")
    ])
    func controlAndFormatCharactersBecomeVisibleEscapes(input: String, expected: String) {
        #expect(LogText.escaped(input) == expected)
    }

    @Test func outputHasNoScalarATerminalActsOn() {
        let hostile = (0..<0x100).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\u{202e}\u{2028}"
        let out = LogText.escaped(hostile, limit: 10_000)
        #expect(out.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7f...0x9f).contains($0.value) && $0.value != 0x202e })
    }

    @Test func longTextIsCutAtTheLimitAndSaysHowMuchWasLeftOut() {
        #expect(LogText.escaped(String(repeating: "a", count: 80), limit: 80) == String(repeating: "a", count: 80))
        #expect(LogText.escaped(String(repeating: "a", count: 81), limit: 80) == String(repeating: "a", count: 80) + "… (1 more bytes)")
        // An escape is never split: the cut falls before it.
        #expect(LogText.escaped("abc\u{1b}def", limit: 5) == "abc… (4 more bytes)")
        let flood = String(repeating: "\u{1b}[2J", count: 100_000)
        #expect(LogText.escaped(flood).count < LogText.defaultLimit + 30)
    }

    @Test func aWholeLineKeepsItsBackslashesButNotItsControls() {
        #expect(LogText.terminalSafe("value (\\x1b) \u{1b}[2J", limit: 100) == "value (\\x1b) \\x1b[2J")
    }

    @Test func linesOfPlainTextComeBackAsTheyAreAndOthersAreEscapedLineByLine() {
        let plain = "a: 12 samples, 0.100 s\nback\\slash ~\n\nlast"
        #expect(LogText.terminalSafeLines(plain, limit: 100) == plain)
        // The limit is a line's: a line of exactly the limit stays, one over it is cut.
        let atLimit = "x\n" + String(repeating: "a", count: 8)
        #expect(LogText.terminalSafeLines(atLimit, limit: 8) == atLimit)
        let overLimit = LogText.terminalSafeLines("x\n" + String(repeating: "a", count: 9), limit: 8)
        #expect(overLimit == "x\n" + String(repeating: "a", count: 8) + "… (1 more bytes)")
        // One control character escapes its own line; the lines around it stay.
        #expect(LogText.terminalSafeLines("one\ntwo \u{1b}[2J\nthree", limit: 100) == "one\ntwo \\x1b[2J\nthree")
        #expect(LogText.terminalSafeLines("tab\there\r", limit: 100) == "tab\\x09here\\x0d")
        #expect(LogText.terminalSafeLines("café\nok", limit: 100) == "café\nok")
    }
}

struct RepeatedLinesTests {
    @Test func aLoneLineIsWrittenAtOnce() {
        var lines = RepeatedLines()
        #expect(lines.admit("refused a", kind: "refused", now: 0) == ["refused a"])
        #expect(lines.nextDue == nil)
        #expect(lines.flush(now: 5) == [])
        // The kind's interval is long over: the next line is written at once too.
        #expect(lines.admit("refused b", kind: "refused", now: 5) == ["refused b"])
    }

    @Test func aFloodWritesAtMostOneLineASecond() {
        var lines = RepeatedLines()
        var written: [(Double, String)] = []
        // 1,000 refusals a second for 5 s, in virtual time.
        for step in 0..<5_000 {
            let now = Double(step) / 1_000
            for line in lines.admit("refused \(step)", kind: "refused", now: now) { written.append((now, line)) }
        }
        for line in lines.flush(now: 5.5) { written.append((5.5, line)) }
        #expect(written.count == 6)
        #expect(written[0].1 == "refused 0")
        #expect(written[1].0 == 1.0)
        #expect(written[1].1 == "999 more lines like this in the last 1.0 s, the last: refused 999")
        for (a, b) in zip(written, written.dropFirst()) { #expect(b.0 - a.0 >= 1.0 - 1e-9) }
        // Every refusal is counted once: written or summarised.
        let summarised = written.dropFirst().map { Int($0.1.split(separator: " ")[0])! }.reduce(0, +)
        #expect(summarised + 1 == 5_000)
    }

    @Test func theSummaryFallsDueOneIntervalAfterTheFirstLine() {
        var lines = RepeatedLines()
        _ = lines.admit("x", kind: "k", now: 10)
        _ = lines.admit("x", kind: "k", now: 10.2)
        _ = lines.admit("y", kind: "k", now: 10.4)
        #expect(lines.nextDue == 11)
        #expect(lines.flush(now: 10.999) == [])
        #expect(lines.flush(now: 11) == ["2 more lines like this in the last 1.0 s, the last: y"])
        #expect(lines.nextDue == nil)
    }

    @Test func kindsAreCountedApart() {
        var lines = RepeatedLines()
        #expect(lines.admit("a", kind: "a", now: 0) == ["a"])
        #expect(lines.admit("b", kind: "b", now: 0.1) == ["b"])
        #expect(lines.admit("a", kind: "a", now: 0.2) == [])
        #expect(lines.flush(now: 1.05) == ["1 more line like this in the last 1.1 s, the last: a"])
    }

    @Test func pastTheLimitOfKindsNewOnesShareOne() {
        var lines = RepeatedLines(maximumKinds: 2)
        #expect(lines.admit("a", kind: "a", now: 0) == ["a"])
        #expect(lines.admit("b", kind: "b", now: 0) == ["b"])
        #expect(lines.admit("c", kind: "c", now: 0) == ["c"])
        #expect(lines.admit("d", kind: "d", now: 0) == [])
        #expect(lines.flushAll(now: 0.5) == ["1 more line like this in the last 0.5 s, the last: d"])
    }
}

/// `WireText.cut`: a bound in bytes, cut between characters, or between scalars when one
/// character alone is over the bound.
struct WireTextTests {
    @Test(arguments: [(10, "abcdefghij"), (9, "abcdef…")])
    func textThatFitsIsWholeAndLongerIsCut(limit: Int, expected: String) {
        #expect(WireText.cut("abcdefghij", toBytes: limit) == expected)
    }

    @Test func oneHugeCharacterIsCutBetweenItsScalars() {
        let bomb = "e" + String(repeating: "\u{301}", count: 30_000)
        #expect(bomb.count == 1)
        let cut = WireText.cut(bomb, toBytes: 64)
        #expect(cut.utf8.count <= 64)
        #expect(cut.unicodeScalars.starts(with: "e\u{301}\u{301}".unicodeScalars) && cut.hasSuffix("…"))
    }

    @Test(arguments: [(6, "aé…"), (5, "a…")])
    func aCutNeverSplitsACharacter(limit: Int, expected: String) {
        // "aééé" is 7 bytes (each é 2): 6 hold "aé" and the ellipsis (3), 5 only "a".
        #expect(WireText.cut("aééé", toBytes: limit) == expected)
    }
}
