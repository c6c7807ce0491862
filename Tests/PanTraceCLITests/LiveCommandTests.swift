import Foundation
import ArgumentParser
import PanCapture
import PanTrace
import Testing

@testable import PanTraceCLI

/// `pantrace live`'s arguments: `record`'s flags plus the server's, each bound from both sides.
struct LiveCommandTests {
    static let base = ["live", "--from", "-", "--format", "getevent", "--to", "ws://127.0.0.1:8080/live", "--token", "t"]

    @Test func liveParsesRecordsFlagsAndItsOwn() throws {
        let command = try #require(
            try PanTraceCommand.parseAsRoot(
                Self.base + [
                    "--axis-range", "0:1079,0:2399", "--screen", "360x800", "--scale", "3", "--edge", "left", "--velocity", "impulse",
                    "--slop", "8", "--name", "Pixel 7", "--platform", "android", "--realtime", "--time-scale", "4", "--queue", "16",
                    "--retries", "1"
                ]) as? LiveCommand)
        #expect(command.recognizing.axisRange == "0:1079,0:2399")
        #expect(command.recognizing.edge == .left)
        #expect(command.recognizing.velocity == .impulse)
        #expect(command.realtime && command.timeScale == 4)
        #expect(command.queueCapacity == 16 && command.retries == 1)
        #expect(command.platform == "android")
    }

    @Test(arguments: [
        ["--scale", "4"], ["--scale", "1"], ["--time-scale", "0.01"], ["--time-scale", "1000"], ["--queue", "16"], ["--queue", "1000000"],
        ["--retries", "1000"]
    ])
    func valuesAtTheBoundsAreAccepted(extra: [String]) throws {
        #expect(try PanTraceCommand.parseAsRoot(Self.base + extra) is LiveCommand)
    }

    @Test(arguments: [
        ["--scale", "4.01"], ["--scale", "0.99"], ["--time-scale", "0.009"], ["--time-scale", "1001"], ["--queue", "15"],
        ["--queue", "1000001"], ["--retries", "0"], ["--platform", "windows"], ["--drain-timeout", "-1"], ["--drain-timeout", "nan"]
    ])
    func valuesPastTheBoundsAreRefused(extra: [String]) {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(Self.base + extra) }
    }

    @Test func theServerAndTheFormatMustBeNamed() {
        #expect(throws: (any Error).self) {
            try PanTraceCommand.parseAsRoot(["live", "--from", "-", "--to", "ws://127.0.0.1:1/live", "--token", "t"])
        }
        #expect(throws: (any Error).self) {
            try PanTraceCommand.parseAsRoot(["live", "--from", "-", "--format", "csv", "--to", "ftp://127.0.0.1:1/live", "--token", "t"])
        }
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(["live", "--from", "-", "--format", "csv", "--token", "t"]) }
    }

    /// `--to` takes what `pantrace serve` prints: the page address, whose token is the token,
    /// as well as the WebSocket with `--token`; two tokens that differ, no token, or another
    /// scheme are refused, and a message never shows the token.
    @Test func theToAddressTakesThePageAddressThatServePrints() throws {
        let page = try LiveEndpoint(to: "http://127.0.0.1:8080/?token=abc%2Bdef", token: nil)
        #expect(page.url.absoluteString == "ws://127.0.0.1:8080/live" && page.token == "abc+def")
        let same = try LiveEndpoint(to: "http://127.0.0.1:8080/?token=abc", token: "abc")
        #expect(same.token == "abc")
        let socket = try LiveEndpoint(to: "ws://127.0.0.1:8080/live", token: "t")
        #expect(socket.url.absoluteString == "ws://127.0.0.1:8080/live" && socket.token == "t")
        let secure = try LiveEndpoint(to: "https://example.org/?token=x", token: nil)
        #expect(secure.url.absoluteString == "wss://example.org/live")
        #expect(throws: (any Error).self) { try LiveEndpoint(to: "http://127.0.0.1:8080/?token=abc", token: "other") }
        #expect(throws: (any Error).self) { try LiveEndpoint(to: "http://127.0.0.1:8080/", token: nil) }
        #expect(throws: (any Error).self) { try LiveEndpoint(to: "ws://127.0.0.1:8080/live", token: nil) }
        #expect(throws: (any Error).self) { try LiveEndpoint(to: "ftp://127.0.0.1:8080/?token=abc", token: nil) }
        do {
            _ = try LiveEndpoint(to: "ftp://127.0.0.1:8080/?token=secret", token: nil)
        } catch {
            #expect(!"\(error)".contains("secret"))
        }
        let command = try #require(
            try PanTraceCommand.parseAsRoot(["live", "--from", "-", "--format", "csv", "--to", "http://127.0.0.1:8080/?token=abc"])
                as? LiveCommand)
        #expect(command.token == nil)
    }

    /// `--realtime` paces events by their gaps: a gap up to 10 s waits as long (scaled), a
    /// longer one (a clock that jumped 4·10⁹ s, which used to trap) waits 10 s and is counted,
    /// and time going back waits nothing.
    @Test func realtimePacingCutsJumpsAndNeverTraps() {
        var pacing = RealtimePacing(timeScale: 0.5)
        #expect(pacing.due(atNanoseconds: 1_000) == 0)
        #expect(pacing.due(atNanoseconds: 1_000 + 1_250_000_000) == 2.5)  // 1.25 s at half speed
        #expect(pacing.warning == nil)
        #expect(pacing.due(atNanoseconds: 1_000 + 6_250_000_000) == 12.5)  // 10 s exactly: not cut
        #expect(pacing.cutGaps == 0)
        #expect(pacing.due(atNanoseconds: 4_000_000_000_000_000_000) == 22.5)  // 4·10⁹ s later: cut to 10 s
        #expect(pacing.due(atNanoseconds: .min) == 22.5)  // back to the start of time
        #expect(pacing.due(atNanoseconds: .max) == 32.5)
        #expect(pacing.cutGaps == 2)
        #expect(pacing.warning?.hasPrefix("the log's clock jumped 2 times (by up to ") == true)
        #expect(pacing.warning?.hasSuffix("--realtime waited 10 s at each") == true)
    }
}
