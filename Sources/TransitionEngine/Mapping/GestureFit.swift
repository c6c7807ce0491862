/// Whether a recorded pan can drive a preset's progress mapping, and by how much it misses
/// (docs/MODEL.md §2.6).
///
/// A pan fits when it moves at least as far along the mapping's axis as across it, and its
/// progress reaches ``minimumPeakProgress`` at some sample. Otherwise the replay would show a
/// transition that barely moves and then cancels, which says nothing about the preset.
public struct GestureFit: Sendable, Hashable {
    /// The verdict.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        /// The pan drives the mapping.
        case fits
        /// The pan moves mostly across the mapping's axis.
        case offAxis = "off_axis"
        /// The pan moves along the axis but its progress never reaches ``GestureFit/minimumPeakProgress``.
        case noProgress = "no_progress"
        /// With a magnitude mapping (`parallax-push`'s `|tx|/W`), the pan moves the other way:
        /// progress follows it, but its velocity points toward cancel.
        case wrongWay = "wrong_way"
    }

    /// The least peak progress that counts as driving the transition.
    public static let minimumPeakProgress = 0.05

    /// The verdict.
    public var verdict: Verdict
    /// The largest `|translation|` along the mapping's axis, points.
    public var along: Double
    /// The largest `|translation|` across it, points.
    public var across: Double
    /// The largest progress any sample maps to (from the release's start, clamped as the
    /// mapping clamps).
    public var peakProgress: Double
    /// The drag the preset expects.
    public var expected: DragDirection
    /// The drag the pan mostly makes: the axis of its larger excursion, the sign of its
    /// farthest point along that axis.
    public var recorded: DragDirection
    /// `L` of the mapping, points.
    public var travel: Double

    /// Analyses `inputs` (every sample from `began` to the release) under `mapping`.
    public init(inputs: [GestureInput], mapping: ProgressMapping) {
        var along = 0.0, across = 0.0, peak = 0.0
        var extremeX = 0.0, extremeY = 0.0, extremeAlong = 0.0
        let fromStart = mapping.continuing(from: 0)
        for input in inputs {
            let t = input.translation
            let axial = mapping.axisComponent(of: t)
            along = max(along, abs(axial))
            across = max(across, abs(mapping.crossComponent(of: t)))
            peak = max(peak, fromStart.progress(for: t))
            if abs(axial) > abs(extremeAlong) { extremeAlong = axial }
            if abs(t.x) > abs(extremeX) { extremeX = t.x }
            if abs(t.y) > abs(extremeY) { extremeY = t.y }
        }
        self.along = along
        self.across = across
        self.peakProgress = peak
        self.expected = DragDirection(axis: mapping.axis, sign: mapping.sign)
        self.recorded =
            abs(extremeX) >= abs(extremeY)
            ? DragDirection(axis: .x, sign: extremeX >= 0 ? 1 : -1)
            : DragDirection(axis: .y, sign: extremeY >= 0 ? 1 : -1)
        self.travel = mapping.distance
        if along < across {
            verdict = .offAxis
        } else if peak < Self.minimumPeakProgress {
            verdict = .noProgress
        } else if mapping.usesMagnitude && extremeAlong * mapping.sign < 0 {
            verdict = .wrongWay
        } else {
            verdict = .fits
        }
    }

    /// True when the pan drives the mapping.
    public var fits: Bool { verdict == .fits }

    /// A `direction` value that would let this pan drive the preset, when changing the
    /// direction would help; nil when it fits or the pan is simply too short.
    public var suggestedDirection: DragDirection? {
        guard !fits, recorded != expected else { return nil }
        return recorded
    }

    /// One sentence: the verdict and by how much, e.g. `"moves mostly across the preset's axis: 12 pt along x, 402 pt across (33.5× as far)"`.
    public var explanation: String {
        let points = { (value: Double) in Decision.format(value, digits: 0) + " pt" }
        let drag = "a drag \(expected.rawValue) (\(expected.signedAxis)) over \(points(travel))"
        switch verdict {
        case .fits:
            return "fits: peak progress \(Decision.format(peakProgress, digits: 2)) under \(drag)"
        case .offAxis:
            let ratio = along > 0 ? " (\(Decision.format(across / along, digits: 1))× as far across)" : ""
            return "does not fit: it moves mostly across the preset's axis, \(points(along)) along \(expected.axis.rawValue) "
                + "and \(points(across)) across\(ratio); the preset is driven by \(drag), the recording drags \(recorded.rawValue) (\(recorded.signedAxis))"
        case .noProgress:
            return "does not fit: it never reaches a meaningful progress, peak \(Decision.format(peakProgress, digits: 3)) "
                + "(at least \(Decision.format(Self.minimumPeakProgress, digits: 2)) needed); the preset is driven by \(drag), "
                + "the recording drags \(recorded.rawValue) (\(recorded.signedAxis)) \(points(max(along, across)))"
        case .wrongWay:
            return "does not fit: it drags \(recorded.rawValue) (\(recorded.signedAxis)) \(points(along)), the opposite of the preset's "
                + "\(drag); progress follows |t\(expected.axis.rawValue)| (peak \(Decision.format(peakProgress, digits: 2))) but the velocity points toward cancel"
        }
    }
}
