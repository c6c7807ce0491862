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
