import Foundation
import Testing

/// Long work shows progress on a terminal and stays quiet in a pipe.
struct SynthProgressTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no /usr/bin/script to make a terminal"))
    func synthOfThousandsShowsProgressOnATerminalOnly() throws {
        let dir = try BinaryTests.temporaryFolder()
        let command = "'\(BinaryTests.binary.path)' synth -o '\(dir)/t' --count 1000 --seed 4"
        let terminal = try BinaryTests.runExecutable("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("synth [") && terminal.stdout.contains("(990/1000 gestures)"))
        let piped = try BinaryTests.run(["synth", "-o", "\(dir)/p", "--count", "1000", "--seed", "4"])
        #expect(piped.status == 0 && !piped.stderr.contains("synth [") && !piped.stdout.contains("synth ["))
        // Below the threshold, no bar even on a terminal.
        let few = try BinaryTests.runExecutable(
            "/usr/bin/script", ["-qec", "'\(BinaryTests.binary.path)' synth -o '\(dir)/f' --count 999 --seed 4", "/dev/null"])
        #expect(few.status == 0 && !few.stdout.contains("synth ["))
    }
}

/// `record` of a log of 8 MiB or more shows how far it has read, on a terminal only.
struct RecordProgressTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no /usr/bin/script to make a terminal"))
    func aLargeLogShowsProgressOnATerminalOnly() throws {
        let dir = try BinaryTests.temporaryFolder()
        // One slow pan of 330,000 samples, 1 ms apart: 8.8 MB of CSV.
        var text = "t_ms,x,y,phase\n0,100,400,down\n"
        text.reserveCapacity(9_000_000)
        for i in 1..<330_000 { text += "\(i),\(100 + Double(i) / 1000),\(400 + Double(i % 7) / 100),move\n" }
        text += "330000,400,400,up\n"
        let log = "\(dir)/big.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: log))
        #expect(text.utf8.count >= 8 << 20)
        let command = "'\(BinaryTests.binary.path)' record --from '\(log)' -o '\(dir)/t/'"
        let terminal = try BinaryTests.runExecutable("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("record [") && terminal.stdout.contains("100% (8/8 MiB)"))
        let piped = try BinaryTests.run(["record", "--from", log, "-o", "\(dir)/p/"])
        #expect(piped.status == 0 && !piped.stderr.contains("record [") && !piped.stdout.contains("record ["))
    }
}
