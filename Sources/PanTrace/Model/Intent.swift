/// What the person meant the gesture to do, as labelled when it was recorded.
public enum Intent: String, Sendable, Codable, CaseIterable {
    /// The person meant the transition to complete.
    case finish
    /// The person meant the transition to snap back.
    case cancel
    /// Nobody said; such traces are left out of tuning.
    case unknown
    /// The person meant the sheet to come to rest at the metadata's ``SheetLabel/target``
    /// (format version 4): tuned by a sheet library, left out of a two-state tune.
    case detent
}
