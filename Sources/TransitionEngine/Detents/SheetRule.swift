/// A library's release rule for a sheet with detents: a value, no clock, no I/O.
///
/// Each conforming type transcribes one library's code (its file and lines in the type's
/// documentation and in docs/MODEL.md §9.3). The velocity it reads has already been read the
/// library's way (``DetentPresetName/velocityReading``).
public protocol SheetRule: Sendable, Hashable {
    /// Where the sheet goes after `release`.
    func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision
    /// How the sheet moves to `outcome` after `release`: the library's own animation
    /// (docs/MODEL.md §9.5).
    func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle
    /// Why the library cannot drive `sheet` (e.g. more detents than it has states), or nil.
    func problem(driving sheet: SheetLayout) -> String?
    /// The settings `--set` may change.
    static var parameters: [DetentParameter<Self>] { get }
}

extension SheetRule {
    /// Every sheet with detents in ``SheetLayout/detentCounts``.
    public func problem(driving sheet: SheetLayout) -> String? { nil }
}
