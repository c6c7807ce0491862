internal import ArgumentParser
internal import PanTrace

/// How hard to be on damaged files, shared by the commands that read traces.
struct ReadOptions: ParsableArguments {
    @Flag(help: "Treat a file that ends early (cut inside a chunk, or unfinished: no end mark) as an error, not a warning.")
    var strict = false

    @Flag(help: "Skip corrupt chunks, keep every readable one, and say what was skipped.")
    var salvage = false

    var reader: TraceReader {
        TraceReader(configuration: TraceReader.Configuration(isStrict: strict, salvages: salvage))
    }
}
