/// A language `--emit` prints code in: Swift for the two-state presets and the iOS sheet
/// libraries, and each other sheet library's own (docs/DETENTS.md, "Shipping a sheet").
package enum EmitLanguage: String, CaseIterable, Sendable {
    case swift, kotlin, dart, js, json, css
}
