internal import PanTrace
package import TransitionEngine
internal import Foundation

extension SheetReplay.Setup {
    /// The setup the command line asks for.
    ///
    /// - Parameters:
    ///   - detents: `80,400,600`: positions in points from the top of the screen.
    ///   - start: the index the sheet rests at, or `auto` (each gesture from the end it drags
    ///     away from); the last (least expanded) when nil.
    ///   - presets: `floatingpanel,vaul`; every library when nil.
    ///   - assignments: `KEY=VALUE` settings. Each goes to every named library that has the key
    ///     (`velocity=…` to all, replacing each library's estimator); a key no library has is
    ///     an error.
    ///   - screen: the screen to replay on; each trace's own when nil.
    /// - Throws: ``ReplayError`` or ``TransitionEngineError`` naming the bad value.
    package init(parsingDetents detents: String, start: String?, presets: String?, assignments: [String], screen: Size?) throws {
        var positions: [Double] = []
        for (index, text) in detents.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed), value.isFinite else {
                throw ReplayError.invalidSheet("--detents item \(index + 1) '\(trimmed)' is not a number of points")
            }
            positions.append(value)
        }
        var names: [DetentPresetName] = DetentPresetName.allCases
        if let presets {
            names = []
            for text in presets.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                // DetentPreset(named:) says which names are valid.
                let name = try DetentPreset(named: trimmed).name
                if !names.contains(name) { names.append(name) }
            }
        }
        var velocity: VelocitySource?
        var overrides: [DetentPresetName: [String: PresetValue]] = [:]
        for text in assignments {
            let (key, value) = try ReplayParameters.assignment(parsing: text)
            if key == VelocitySource.parameterKey {
                velocity = try ReplayParameters.velocitySource(value)
                continue
            }
            let takers = names.filter { name in DetentPreset(name).settings.contains { $0.key == key } }
            guard !takers.isEmpty else {
                let valid = Set(names.flatMap { DetentPreset($0).settings.map(\.key) } + [VelocitySource.parameterKey]).sorted()
                throw ReplayError.unknownParameter(key, preset: names.map(\.rawValue).joined(separator: ", "), valid: valid)
            }
            for name in takers { overrides[name, default: [:]][key] = value }
        }
        let made = try names.map { name in try DetentPreset(named: name.rawValue, overrides: overrides[name] ?? [:]) }
        var index = max(positions.count - 1, 0)
        if let start, start != "auto" {
            guard let number = Int(start) else { throw ReplayError.invalidSheet("start '\(start)' is not a detent index (0, 1, …) or auto") }
            index = number
        }
        self.init(detents: positions, start: index, presets: made, velocity: velocity, screen: screen)
        startsByDirection = start == "auto"
    }

    /// The sheet on a screen `screenHeight` points tall: the setup's screen, or any that holds
    /// the detents, when nil.
    ///
    /// - Throws: ``ReplayError`` when the detents are not a sheet on it or `start` names none.
    package func sheet(screenHeight: Double? = nil) throws(ReplayError) -> SheetLayout {
        let height = screenHeight ?? screen?.height ?? (detents.max() ?? 0) + 1
        do {
            let sheet = try SheetLayout(detents: detents, screenHeight: max(height, 1))
            try sheet.checkIndex(start)
            return sheet
        } catch {
            throw .invalidSheet(error.description)
        }
    }

    /// The libraries that cannot drive this sheet whatever the gesture (e.g. more detents than
    /// the library has states), each with one line saying why.
    ///
    /// - Throws: ``ReplayError`` when the detents are not a sheet at all.
    package func presetsThatCannotDrive() throws(ReplayError) -> [(name: DetentPresetName, problem: String)] {
        // A library's limits are on the detents, not the screen.
        let sheet = try sheet()
        return presets.compactMap { preset in preset.problem(driving: sheet).map { (preset.name, $0) } }
    }

    /// This setup without the libraries named.
    package func leavingOut(_ names: Set<DetentPresetName>) -> Self {
        var copy = self
        copy.presets.removeAll { names.contains($0.name) }
        return copy
    }
}
