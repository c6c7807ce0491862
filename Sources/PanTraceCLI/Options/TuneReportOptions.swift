internal import ArgumentParser
internal import PanReplay
internal import PanTune

/// The report flags of `pantrace tune` and `pantrace tune merge`: one definition, so both
/// commands take the same flags with the same meaning (docs/TUNE.md).
struct TuneReportOptions: ParsableArguments {
    @Flag(help: "Print the report as JSON (docs/TUNE.md).")
    var json = false

    @Option(help: "Also write every grid point as CSV to this file (never over an existing file without --force).")
    var csv: String?

    @Option(help: "Also write an SVG heat map of accuracy over the first two axes to this file (never over an existing file without --force).")
    var svg: String?

    @Option(
        help:
            "Also write the best point as a setting file (JSON: the preset and every parameter, velocity among them) that replay, emit and serve take with --setting (docs/TUNE.md); never over an existing file without --force."
    )
    var saveSetting: String?

    @Flag(
        help:
            "Replace the files this run writes (--csv, --svg, --save-setting; tune's --partial) if they exist. Without it an existing file is an error, found before the sweep."
    )
    var force = false

    @Option(
        help:
            "Print the best point as code instead of the report: swift for a two-state preset (docs/TUNE.md, \"Shipping the result\"); for a sheet library its own language: swift, json, js, kotlin, dart or css (docs/DETENTS.md). After a merge, the code is the whole run's; its comment names the merge and the partials."
    )
    var emit: EmitLanguage?

    @Flag(help: "List every misjudged recording in the text report, not only the first 10.")
    var all = false

    func validate() throws {
        if emit != nil && json { throw ValidationError("--emit and --json both print to standard output; choose one") }
        if let csv, csv == svg { throw ValidationError("--csv and --svg name the same file, \(csv)") }
        if let saveSetting, saveSetting == csv || saveSetting == svg {
            throw ValidationError("--save-setting and --csv or --svg name the same file, \(saveSetting)")
        }
    }

    /// Whether a flag that writes a file was given (what --force applies to).
    var writesFiles: Bool { csv != nil || svg != nil || saveSetting != nil }

    /// Fails before the sweep when a file this run writes exists (and --force was not given)
    /// or cannot be written.
    func checkFiles() throws {
        if let csv { try OutputFile.checkWritable(csv, flag: "--csv", replacing: force) }
        if let svg { try OutputFile.checkWritable(svg, flag: "--svg", replacing: force) }
        if let saveSetting { try OutputFile.checkWritable(saveSetting, flag: "--save-setting", replacing: force) }
    }
}
