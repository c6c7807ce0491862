package import PanTrace
package import PanReplay
package import TransitionEngine

/// A grid over one preset: what each point's parameters are, and how each axis affects the
/// work (its ``AxisRole``), which every part of a sweep asks (admission, the sweep, partials).
package struct PresetGrid: Sendable {
    /// How a grid axis affects the work, which decides the sweep order.
    package enum AxisRole: Int, Sendable, Comparable {
        /// Changes the release state (velocity source, progress mapping): outermost.
        case release
        /// May change the completion (model, curve, gates, geometry): middle.
        case completion
        /// Changes only the decision rule: innermost, so the completion cache is reused.
        case decision

        package static func < (lhs: AxisRole, rhs: AxisRole) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The role of the axis named `key`, from the catalog's ``ParameterKey/stage``: the
        /// velocity source and the mapping keys change the release state; keys that enter only
        /// the decision rule are decisions (`TunerTests` checks that they leave the completion
        /// and the mapping unchanged); every other key (the velocity gate, the completion, the
        /// geometry) may change the completion.
        init(key: String) {
            if key == VelocitySource.parameterKey {
                self = .release
                return
            }
            switch ParameterKey(rawValue: key)?.stage {
            case .mapping: self = .release
            case .decisionRule: self = .decision
            case .velocityGate, .completion, .geometry, nil: self = .completion
            }
        }
    }

    /// The preset swept.
    package let presetName: PresetName
    /// The grid.
    package let grid: TuningGrid

    /// The grid `grid` over the preset called `name`.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown preset or a value out of range;
    ///   ``ReplayError`` for an unknown key (listing the valid ones, `velocity` included).
    package init(presetNamed name: String, grid: TuningGrid) throws {
        let valid = try ReplayParameters.validKeys(forPreset: name)
        for axis in grid.axes {
            guard valid.contains(axis.key) else { throw ReplayError.unknownParameter(axis.key, preset: name, valid: valid) }
            // A range's values lie between its ends, so checking the ends and every name is enough.
            let numbers = axis.values.compactMap(\.number)
            var checked = axis.values.filter { $0.number == nil }
            if let low = numbers.min(), let high = numbers.max() { checked += [.number(low), .number(high)] }
            for value in checked {
                _ = try ReplayParameters(presetNamed: name, overrides: [axis.key: value])
            }
        }
        self.presetName = try Preset(named: name).name
        self.grid = grid
    }

    /// The parameters at grid point `index`.
    package func parameters(atPoint index: Int) -> ReplayParameters {
        parameters(keys: grid.axes.map(\.key), values: grid.values(ofPoint: index))
    }

    /// The preset's own parameters: every default, with its expected velocity source.
    package var defaultParameters: ReplayParameters { ReplayParameters(preset: Preset(presetName)) }

    package func parameters(keys: [String], values: [PresetValue]) -> ReplayParameters {
        var overrides: [String: PresetValue] = [:]
        var velocity: VelocitySource?
        do {
            for (key, value) in zip(keys, values) {
                if key == VelocitySource.parameterKey {
                    velocity = try ReplayParameters.velocitySource(value)
                } else {
                    overrides[key] = value
                }
            }
            return ReplayParameters(preset: try Preset(presetName, overrides: overrides), velocity: velocity)
        } catch {
            // Every axis value was validated in `init`, and keys are independent.
            preconditionFailure("validated grid value rejected: \(error)")
        }
    }

    /// Whether the grid has a numeric threshold axis, which the sorted sweep may score: the
    /// per-decision sweep then keeps its sums exactly, so both paths agree to the bit (and
    /// the report is the same whether the sorted sweep runs or not). Without one, it adds
    /// them in trace order, as plain doubles.
    package var hasThresholdAxis: Bool {
        grid.axes.contains { axis in
            axis.key == ParameterKey.threshold.rawValue && axis.values.count > 1 && axis.values.allSatisfy { $0.number?.isFinite == true }
        }
    }

    /// The velocity sources the sweep needs: the defaults' and every one on a velocity axis.
    package func velocitySources() throws -> [VelocitySource] {
        var sources = [defaultParameters.velocity]
        if let axis = grid.axes.first(where: { $0.key == VelocitySource.parameterKey }) {
            for value in axis.values {
                let source = try ReplayParameters.velocitySource(value)
                if !sources.contains(source) { sources.append(source) }
            }
        }
        return sources
    }

    /// What identifies a release set: the value of each release axis (velocity source and
    /// progress mapping) in `parameters`, in axis order; other axes leave the release unchanged.
    package func releaseKey(_ parameters: ReplayParameters) -> String {
        grid.axes.filter { AxisRole(key: $0.key) == .release }.map { axis in
            "\(axis.key)=\(parameters.value(forKey: axis.key).map { "\($0)" } ?? "")"
        }.joined(separator: ",")
    }

    /// The release sets a sweep reads: one per combination of release-axis values, then the
    /// defaults' when it is not among them; each with a parameter set that has it.
    package func releaseParameters() -> [(key: String, parameters: ReplayParameters)] {
        let axes = grid.axes.filter { AxisRole(key: $0.key) == .release }
        let count = axes.reduce(1) { $0 * $1.values.count }
        var sets: [(key: String, parameters: ReplayParameters)] = []
        for combination in 0..<count {
            var remainder = combination
            var values: [(String, PresetValue)] = []
            for axis in axes.reversed() {
                values.append((axis.key, axis.values[remainder % axis.values.count]))
                remainder /= axis.values.count
            }
            let parameters = self.parameters(keys: values.map(\.0), values: values.map(\.1))
            let key = releaseKey(parameters)
            if !sets.contains(where: { $0.key == key }) { sets.append((key, parameters)) }
        }
        let defaults = defaultParameters
        let key = releaseKey(defaults)
        if !sets.contains(where: { $0.key == key }) { sets.append((key, defaults)) }
        return sets
    }

    /// The presets of every combination of the grid's mapping axes (the defaults when it has
    /// none): a trace is tuned when it drives at least one of them.
    package func mappingVariants() -> [Preset] {
        let axes = grid.axes.filter { ParameterKey(rawValue: $0.key)?.stage == .mapping }
        let count = axes.reduce(1) { $0 * $1.values.count }
        return (0..<count).map { combination in
            var remainder = combination
            var overrides: [String: PresetValue] = [:]
            for axis in axes.reversed() {
                overrides[axis.key] = axis.values[remainder % axis.values.count]
                remainder /= axis.values.count
            }
            return parameters(keys: Array(overrides.keys), values: Array(overrides.values)).preset
        }
    }

    /// Settings among the grid's points that make a decision outcome unreachable
    /// (docs/MODEL.md §3.10), each once, with the first point that has them; at most 20.
    package func unreachableSettings() -> [String] {
        var notes: [String] = []
        var seen: Set<String> = []
        let keys = grid.axes.map(\.key)
        // `Preset.unreachableOutcomes` reads only the rule's threshold and comparison and the
        // rubber band, and names nothing for a threshold strictly between 0 and 1 (docs/MODEL.md
        // §3.10): a point is built only for a new combination of those axes' values, and not
        // for a threshold inside (0, 1).
        let relevant = keys.indices.filter { [.threshold, .comparison, .rubberBand].contains(ParameterKey(rawValue: keys[$0])) }
        let thresholdAxis = keys.firstIndex(of: ParameterKey.threshold.rawValue)
        var checked: Set<[Int]> = []
        for index in 0..<min(grid.pointCount, TuningReport.maximumListedPoints) {
            let indices = grid.valueIndices(ofPoint: index)
            if let thresholdAxis, let value = grid.axes[thresholdAxis].values[indices[thresholdAxis]].number, value > 0 && value < 1 {
                continue
            }
            guard checked.insert(relevant.map { indices[$0] }).inserted else { continue }
            let preset = parameters(atPoint: index).preset
            for note in preset.unreachableOutcomes where !seen.contains(note) {
                seen.insert(note)
                let values = zip(keys, grid.values(ofPoint: index)).map { "\($0)=\(TuningResult.text($1))" }.joined(separator: " ")
                notes.append(values.isEmpty ? note : "\(values): \(note)")
                if notes.count == 20 { return notes }
            }
        }
        return notes
    }
}
