internal import PanTrace
internal import ArgumentParser
internal import Foundation
internal import PanReplay
internal import PanTune
internal import TransitionEngine

/// `pantrace presets`: the transition presets, their parameters and defaults.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the transition presets and sheet libraries, or one's parameters with defaults, units and allowed values.")

    @Argument(help: "A preset name; all presets when omitted.")
    var name: String?

    @Flag(
        help:
            "JSON: an array of presets, or one preset object (keys: name, summary, source, decision_rule, completion_model, velocity_estimator, drag, parameters)."
    )
    var json = false

    @Option(
        name: .customLong("set"),
        help: "With --emit: override a parameter, KEY=VALUE (repeatable); keys from `pantrace presets NAME`, plus velocity=recorded.")
    var assignments: [String] = []

    @Option(help: "Print the preset (with any --set) as code: swift (docs/TUNE.md, \"Shipping the result\").")
    var emit: EmitLanguage?

    func validate() throws {
        if emit != nil {
            guard name != nil else { throw ValidationError("--emit needs a preset name, e.g. pantrace presets swipe-dismiss --emit swift") }
            guard !json else { throw ValidationError("--emit and --json both print to standard output; choose one") }
            if let emit, emit != .swift, let name, DetentPresetName(rawValue: name) == nil {
                throw ValidationError("--emit \(emit.rawValue): preset '\(name)' is a two-state transition, emitted as swift")
            }
        } else if !assignments.isEmpty {
            throw ValidationError("--set only applies with --emit")
        }
    }

    /// A catalog entry with plain JSON values (numbers and strings, not tagged enums).
    struct Listing: Encodable {
        struct Parameter: Encodable {
            var key: String
            var meaning: String
            var unit: String
            var defaultValue: Value
            var range: [Double]?
            var choices: [String]?

            enum CodingKeys: String, CodingKey {
                case key, meaning, unit, range, choices
                case defaultValue = "default"
            }
        }

        enum Value: Encodable {
            case number(Double)
            case text(String)

            init(_ value: PresetValue) {
                switch value {
                case .number(let number): self = .number(number)
                case .choice(let name): self = .text(name)
                }
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .number(let number): try container.encode(number)
                case .text(let text): try container.encode(text)
                }
            }
        }

        var name: String
        var summary: String
        var source: String
        var decisionRule: String
        var completionModel: String
        var velocityEstimator: String
        var drag: Drag
        var parameters: [Parameter]

        /// The drag that drives the preset (docs/MODEL.md §2.3).
        struct Drag: Encodable {
            /// `right`, `left`, `down` or `up`.
            var direction: String
            /// `x` or `y`.
            var axis: String
            /// +1 or −1: the sign of a translation toward finish.
            var sign: Double
            /// The travel that makes progress 1, in `travelUnit`.
            var travel: Double
            /// `width`, `height` or `points`.
            var travelUnit: String
            /// True when progress follows `|translation|` (either way along the axis).
            var magnitude: Bool
            /// In words.
            var text: String

            enum CodingKeys: String, CodingKey {
                case direction, axis, sign, travel, magnitude, text
                case travelUnit = "travel_unit"
            }
        }

        enum CodingKeys: String, CodingKey {
            case name, summary, source, parameters, drag
            case decisionRule = "decision_rule"
            case completionModel = "completion_model"
            case velocityEstimator = "velocity_estimator"
        }

        init(_ entry: PresetCatalog.Entry) {
            name = entry.name
            summary = entry.summary
            source = entry.source
            decisionRule = entry.decisionRule
            completionModel = entry.completionModel
            velocityEstimator = entry.velocityEstimator
            let preset = Preset(PresetName(rawValue: entry.name) ?? .uikitPercent)
            drag = Drag(
                direction: preset.dragDirection.rawValue, axis: preset.dragDirection.axis.rawValue, sign: preset.dragDirection.sign,
                travel: preset.travel, travelUnit: preset.travelUnit, magnitude: preset.usesMagnitude, text: preset.dragDescription)
            parameters = entry.parameters.map { parameter in
                var listed = Parameter(
                    key: parameter.key, meaning: parameter.meaning, unit: parameter.unit, defaultValue: Value(parameter.defaultValue))
                switch parameter.allowed {
                case .range(let range): listed.range = [range.lowerBound, range.upperBound]
                case .choices(let choices): listed.choices = choices
                }
                return listed
            }
            // The replayer's own key, accepted by --set and --grid with every preset.
            parameters.append(
                Parameter(
                    key: VelocitySource.parameterKey, meaning: "where release velocity comes from: the trace's own, or recomputed by an estimator",
                    unit: "", defaultValue: .text(entry.velocityEstimator), choices: VelocitySource.allCases.map(\.rawValue)))
        }
    }

    func run() throws {
        if let emit, let name, let sheet = DetentPresetName(rawValue: name) {
            try SheetEmitter.check(emit, library: sheet)
            var overrides: [String: PresetValue] = [:]
            for text in assignments {
                let (key, value) = try ReplayParameters.assignment(parsing: text)
                overrides[key] = value
            }
            let emitter = SheetEmitter(preset: try DetentPreset(named: name, overrides: overrides), command: ShellQuoting.invocation)
            print(emitter.code(), terminator: "")
            for item in emitter.unshippable {
                StandardError.line("note: \(name) cannot set \(item.key)=\(item.value): \(item.why); the code keeps \(item.libraryValue)")
            }
            return
        }
        if emit != nil, let name {
            var overrides: [String: PresetValue] = [:]
            for text in assignments {
                let (key, value) = try ReplayParameters.assignment(parsing: text)
                overrides[key] = value
            }
            let parameters = try ReplayParameters(presetNamed: name, overrides: overrides)
            let settings = assignments.isEmpty ? "its defaults" : assignments.joined(separator: " ")
            let command = ShellQuoting.invocation
            print(
                try SwiftSnippet.emit(
                    parameters,
                    provenance: [
                        "Command: \(command)",
                        "Not tuned: preset \(name) with \(settings); no recordings were scored (pantrace tune … --emit swift does)."
                    ]), terminator: "")
            return
        }
        if let name, let sheet = DetentPresetName(rawValue: name) {
            print(json ? try SheetListing(sheet).json() : SheetListing(sheet).text())
            return
        }
        let entries: [PresetCatalog.Entry]
        do {
            entries = try name.map { [try PresetCatalog.entry(named: $0)] } ?? PresetCatalog.entries
        } catch let error as TransitionEngineError {
            StandardError.line("error: \(error.description)")
            throw ExitCode.failure
        }
        let listings = entries.map(Listing.init)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            let data = name == nil ? try encoder.encode(listings) : try encoder.encode(listings[0])
            print(String(decoding: data, as: UTF8.self))
        } else if name == nil {
            let width = listings.map(\.name.count).max() ?? 0
            for listing in listings {
                let padded = listing.name.padding(toLength: width, withPad: " ", startingAt: 0)
                print(
                    "\(padded)  \(listing.decisionRule) + \(listing.completionModel), velocity \(listing.velocityEstimator), \(listing.drag.text): \(listing.summary)"
                )
            }
            print("")
            print("Sheets with detents (pantrace detents; docs/MODEL.md §9):")
            print(SheetListing.catalog())
        } else {
            print(Self.details(listings[0]))
        }
    }

    static func details(_ listing: Listing) -> String {
        var lines = [
            "\(listing.name): \(listing.summary)",
            "decision \(listing.decisionRule), completion \(listing.completionModel), velocity \(listing.velocityEstimator)",
            "driven by: \(listing.drag.text) (--set direction=right|left|down|up, travel=…, travelUnit=width|height|points)",
            "source: \(listing.source)",
            ""
        ]
        let width = listing.parameters.map(\.key.count).max() ?? 0
        for parameter in listing.parameters {
            let value: String
            switch parameter.defaultValue {
            case .number(let number): value = "\(number)"
            case .text(let text): value = text
            }
            let allowed = parameter.range.map { "\($0[0]) … \($0[1])" } ?? parameter.choices?.joined(separator: "|") ?? ""
            let unit = parameter.unit.isEmpty ? "" : " \(parameter.unit)"
            lines.append(
                "  \(parameter.key.padding(toLength: width, withPad: " ", startingAt: 0))  = \(value)\(unit)  [\(allowed)]  \(parameter.meaning)")
        }
        return lines.joined(separator: "\n")
    }
}
