/// How a preset reads the pan callbacks (docs/MODEL.md §1.3, §1.4): which ones move the
/// transition, and which progress its release decides on.
public struct CallbackReading: Sendable, Hashable, Codable {
    /// Which callbacks move the drawn progress, and so where the completion starts.
    public var progressSource: ReleaseProgress
    /// With ``ReleaseProgress/changed``: true when the decision reads the progress computed
    /// from the release callback's own translation (the zoom, drawer and parallax articles
    /// compute it before their `switch`), false when it reads the last `changed` value.
    public var decidesOnReleaseCallback: Bool

    /// Creates a reading.
    public init(progressSource: ReleaseProgress, decidesOnReleaseCallback: Bool = false) {
        self.progressSource = progressSource
        self.decidesOnReleaseCallback = decidesOnReleaseCallback
    }
}
