internal import PanTrace
internal import Foundation
internal import PanReplay
internal import TransitionEngine

/// A sheet library as `pantrace presets` lists it: its rule, how it reads velocity, its settings.
struct SheetListing: Encodable {
    var name: String
    var summary: String
    var source: String
    var velocityEstimator: String
    var velocityGate: String
    var parameters: [PresetsCommand.Listing.Parameter]

    enum CodingKeys: String, CodingKey {
        case name, summary, source, parameters
        case velocityEstimator = "velocity_estimator"
        case velocityGate = "velocity_gate"
    }

    init(_ name: DetentPresetName) {
        self.name = name.rawValue
        summary = name.summary
        source = name.source
        velocityEstimator = name.velocityGate == .pressMean ? "none" : SheetReplay.libraryEstimator(name).rawValue
        velocityGate = name.velocityGate.rawValue
        parameters = DetentPreset(name).settings.map {
            PresetsCommand.Listing.Parameter(key: $0.key, meaning: $0.summary, unit: $0.unit, defaultValue: PresetsCommand.Listing.Value($0.value))
        }
    }

    /// One line per library.
    static func catalog() -> String {
        let width = DetentPresetName.allCases.map(\.rawValue.count).max() ?? 0
        return DetentPresetName.allCases.map { name in
            "\(name.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \(name.summary)"
        }.joined(separator: "\n")
    }

    func text() -> String {
        var lines = [
            "\(name): \(summary)",
            "velocity: estimator \(velocityEstimator), gate \(velocityGate) (--set velocity=\(VelocitySource.choices) replaces the estimator)",
            "source: \(source)",
            "sheet: pantrace detents FILE… --detents 80,400,600 --start 2 --presets \(name)",
            ""
        ]
        let width = parameters.map(\.key.count).max() ?? 0
        for parameter in parameters {
            let value: String
            switch parameter.defaultValue {
            case .number(let number): value = "\(number)"
            case .text(let text): value = text
            }
            let unit = parameter.unit.isEmpty ? "" : " \(parameter.unit)"
            lines.append("  \(parameter.key.padding(toLength: width, withPad: " ", startingAt: 0))  = \(value)\(unit)  \(parameter.meaning)")
        }
        return lines.joined(separator: "\n")
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
