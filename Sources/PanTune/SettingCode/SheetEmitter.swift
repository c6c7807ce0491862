package import PanReplay
package import TransitionEngine
internal import Foundation

/// A sheet library's configuration as its own code (docs/DETENTS.md, "Shipping a sheet"):
/// FloatingPanel and PanModal in Swift, vaul's props in JSON, gorhom's props and a gesture
/// handler in JavaScript, Material and Compose in Kotlin, Flutter in Dart, CSS scroll snap in
/// CSS.
///
/// A library's API exposes some of the settings PanTrace models and hard-codes the rest (vaul's
/// 0.4 px/ms, PanModal's 0.7, Material's `HIDE_THRESHOLD`); some describe the device or the
/// browser, not the app (Material's density, Chromium's frame timing). ``shippable(_:)``
/// keeps what the code can say and puts the library's default back for the rest, so what is
/// emitted is what an app would get; the command scores that, not the best point, and lists
/// the gestures it still gets wrong.
package struct SheetEmitter: Sendable {
    /// A setting the library's code cannot carry, with why.
    package struct Unshippable: Sendable, Hashable {
        package var key: String
        /// The value asked for (tuned or set).
        package var value: PresetValue
        /// The library's own value, which the code keeps.
        package var libraryValue: PresetValue
        package var why: String
    }

    /// The configuration to print: only settings the code can carry differ from the defaults.
    package let preset: DetentPreset
    /// Settings asked for that the code cannot carry.
    package let unshippable: [Unshippable]
    /// Comment lines: how the configuration was made and how well it does.
    package let provenance: [String]
    /// The labelled gestures it still gets wrong, when it was scored.
    package let stillWrong: [DetentTuning.Miss]

    /// The language each library is configured in.
    package static func language(of library: DetentPresetName) -> EmitLanguage {
        switch library {
        case .floatingpanel, .panmodal: .swift
        case .vaul: .json
        case .gorhom: .js
        case .mdcBottomsheet, .composeAnchored, .m3Sheet: .kotlin
        case .flutterSheet: .dart
        case .cssScrollSnap: .css
        }
    }

    /// Refuses a language the library is not configured in.
    package static func check(_ language: EmitLanguage, library: DetentPresetName) throws(ReplayError) {
        let own = Self.language(of: library)
        guard language == own else {
            throw .cannotEmitSheet("\(library.rawValue) is configured in \(own.rawValue): give --emit \(own.rawValue)")
        }
    }

    /// Why `key` of `library` cannot be shipped in its code, or nil when it can (each
    /// reason names where the library fixes the value).
    package static func whyUnshippable(_ key: String, of library: DetentPresetName) -> String? {
        switch (library, key) {
        case (.vaul, "fastVelocity"): "the literal `velocity > 2` in src/use-snap-points.ts onRelease"
        case (.vaul, "velocityThreshold"): "VELOCITY_THRESHOLD, a constant in src/constants.ts"
        case (.vaul, "stepDragFraction"): "the literal `dim * 0.4` in src/use-snap-points.ts onRelease"
        case (.mdcBottomsheet, "density"): "the device's screen density, not a setting"
        case (.mdcBottomsheet, "hideThreshold"): "HIDE_THRESHOLD, a private constant of BottomSheetBehavior"
        case (.composeAnchored, "velocityThreshold"):
            "the internal AnchoredDraggableMinFlingVelocity (125.dp) of Modifier.anchoredDraggable's fling behavior; only the deprecated AnchoredDraggableState factory took one"
        case (.panmodal, "snapMovementSensitivity"): "Constants.snapMovementSensitivity, an internal static let of PanModalPresentationController"
        case (.cssScrollSnap, "snapStopAlways"): nil
        case (.cssScrollSnap, _): "the browser's and the screen's, not the page's"
        default: nil
        }
    }

    /// What the library's code can carry of `preset`: its shippable settings, the library's
    /// defaults for the rest, and the rest listed.
    package static func shippable(_ preset: DetentPreset) -> (preset: DetentPreset, unshippable: [Unshippable]) {
        let defaults = DetentPreset(preset.name).settings
        var overrides: [String: PresetValue] = [:]
        var unshippable: [Unshippable] = []
        for (setting, library) in zip(preset.settings, defaults) where setting.value != library.value {
            if let why = whyUnshippable(setting.key, of: preset.name) {
                unshippable.append(Unshippable(key: setting.key, value: setting.value, libraryValue: library.value, why: why))
            } else {
                overrides[setting.key] = setting.value
            }
        }
        do {
            return (try DetentPreset(named: preset.name.rawValue, overrides: overrides), unshippable)
        } catch {
            preconditionFailure("values the preset held: \(error)")
        }
    }

    /// The configuration of `preset` as given (`pantrace presets NAME --emit`), not scored.
    package init(preset: DetentPreset, command: String) {
        let (shipped, unshippable) = Self.shippable(preset)
        self.preset = shipped
        self.unshippable = unshippable
        self.provenance = ["Command: \(command)", "Not tuned: no recordings were scored (pantrace tune … --emit does)."]
        self.stillWrong = []
    }

    /// The shippable configuration of a sweep's best point, scored on the sweep's drags.
    package init(tuning: DetentTuning, tuner: DetentTuner, drags: [DetentTuner.LabelledDrag], command: String, paths: [String]) {
        let best = tuner.preset(atPoint: tuning.choice.best)
        let (shipped, unshippable) = Self.shippable(best)
        // The app reads its platform's own velocity: the defaults' estimator.
        let score = tuner.score(shipped, estimator: tuner.defaultsEstimator, on: drags)
        self.preset = shipped
        self.unshippable = unshippable
        self.stillWrong = score.misses
        let values = zip(tuning.axes, tuning.bestValues).map { "\($0)=\($1)" }.joined(separator: " ")
        var lines = [
            "Command: \(command)",
            "Tuned on: \(paths.joined(separator: ", ")) (\(drags.count) gestures labelled with a detent)",
            "Best point: \(values): \(DetentTuning.rates(tuning.best))."
        ]
        lines.append("As shipped (what this code can say, read with the library's own velocity): \(DetentTuning.rates(score.landings)).")
        lines.append("The library's defaults: \(DetentTuning.rates(tuning.defaults)).")
        self.provenance = lines
    }

    /// One number as code: `0.2`, `5.5`, `2`.
    static func literal(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// A number with a decimal point, for Swift's and Kotlin's and Dart's floating types.
    static func decimal(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// Comment lines (`//`, or `/* */` for CSS): the provenance, what cannot be shipped, and
    /// the gestures still wrong, each line escaped so no outside text can end the comment.
    func commentLines(style: String = "//") -> [String] {
        var lines = ["Generated by pantrace: do not edit by hand; run the command again instead."]
        lines += provenance
        for item in unshippable {
            lines.append("Cannot be set in this library: \(item.key)=\(item.value) (kept at \(item.libraryValue)): \(item.why).")
        }
        if !stillWrong.isEmpty {
            lines.append("Labelled gestures this configuration still gets wrong (\(stillWrong.count)):")
            for miss in stillWrong.prefix(Self.listedMisses) {
                lines.append("  \(miss.file): meant \(miss.meant) from detent \(miss.start), lands \(miss.landed) (\(miss.landing.rawValue))")
            }
            if stillWrong.count > Self.listedMisses {
                lines.append("  … \(stillWrong.count - Self.listedMisses) more (pantrace tune --all lists them)")
            }
        }
        return lines.map { line in
            let safe = SourceText.comment(line)
            return style == "/*" ? " * \(safe)" : "\(style) \(safe)"
        }
    }

    /// Misses listed in the code's comment.
    static let listedMisses = 20

    /// The code.
    package func code() -> String {
        switch preset.rule {
        case .floatingPanel(let rule): floatingPanelSwift(rule)
        case .panModal(let rule): panModalSwift(rule)
        case .vaul(let rule): vaulJSON(rule)
        case .gorhom(let rule): gorhomJS(rule)
        case .materialBottomSheet(let rule): materialKotlin(rule)
        case .anchored(let rule): composeKotlin(rule)
        case .material3Sheet(let rule): material3Kotlin(rule)
        case .flutterSheet(let rule): flutterDart(rule)
        case .cssScrollSnap(let rule): scrollSnapCSS(rule)
        }
    }
}
