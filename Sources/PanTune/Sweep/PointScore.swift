/// How one grid point did over the labelled traces: the per-point row of the tuning table.
package struct PointScore: Sendable, Hashable, Codable {
    /// Traces decided (those with a known intent).
    package var traces: Int
    /// Decisions that matched the intent.
    package var correct: Int
    /// Finished, but the person meant cancel.
    package var falseFinishes: Int
    /// Cancelled, but the person meant finish.
    package var falseCancels: Int
    /// Releases where ±10 % velocity noise would change the decision.
    package var flipProne: Int
    /// Mean decision margin, in the deciding statistic's unit (progress for D1/D4/D5).
    package var meanMargin: Double
    /// Smallest decision margin.
    package var minimumMargin: Double
    /// Mean `|velocity discontinuity at release|`, pt/s.
    package var meanDiscontinuity: Double
    /// Mean completion time after release, s.
    package var meanCompletionTime: Double

    /// Creates a score.
    package init(
        traces: Int, correct: Int, falseFinishes: Int, falseCancels: Int, flipProne: Int,
        meanMargin: Double, minimumMargin: Double, meanDiscontinuity: Double, meanCompletionTime: Double
    ) {
        self.traces = traces
        self.correct = correct
        self.falseFinishes = falseFinishes
        self.falseCancels = falseCancels
        self.flipProne = flipProne
        self.meanMargin = meanMargin
        self.minimumMargin = minimumMargin
        self.meanDiscontinuity = meanDiscontinuity
        self.meanCompletionTime = meanCompletionTime
    }

    /// The fraction of decisions that matched the intent, 0…1.
    package var accuracy: Double { traces == 0 ? 0 : Double(correct) / Double(traces) }

    /// Whether this point ranks above `other`: more correct decisions; on a tie, a larger
    /// minimum margin; then a smaller mean velocity discontinuity.
    package func ranks(above other: PointScore) -> Bool {
        if correct != other.correct { return correct > other.correct }
        if minimumMargin != other.minimumMargin { return minimumMargin > other.minimumMargin }
        return meanDiscontinuity < other.meanDiscontinuity
    }

    static let empty = PointScore(
        traces: 0, correct: 0, falseFinishes: 0, falseCancels: 0, flipProne: 0,
        meanMargin: 0, minimumMargin: 0, meanDiscontinuity: 0, meanCompletionTime: 0)

    enum CodingKeys: String, CodingKey {
        case traces, correct, accuracy
        case falseFinishes = "false_finishes"
        case falseCancels = "false_cancels"
        case flipProne = "flip_prone"
        case meanMargin = "mean_margin"
        case minimumMargin = "min_margin"
        case meanDiscontinuity = "mean_discontinuity_pt_s"
        case meanCompletionTime = "mean_completion_s"
    }

    /// Decodes a score (``accuracy`` is derived, so it is read past).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        traces = try c.decode(Int.self, forKey: .traces)
        correct = try c.decode(Int.self, forKey: .correct)
        falseFinishes = try c.decode(Int.self, forKey: .falseFinishes)
        falseCancels = try c.decode(Int.self, forKey: .falseCancels)
        flipProne = try c.decode(Int.self, forKey: .flipProne)
        meanMargin = try c.decode(Double.self, forKey: .meanMargin)
        minimumMargin = try c.decode(Double.self, forKey: .minimumMargin)
        meanDiscontinuity = try c.decode(Double.self, forKey: .meanDiscontinuity)
        meanCompletionTime = try c.decode(Double.self, forKey: .meanCompletionTime)
    }

    /// Encodes the score with its ``accuracy``.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(traces, forKey: .traces)
        try c.encode(correct, forKey: .correct)
        try c.encode(accuracy, forKey: .accuracy)
        try c.encode(falseFinishes, forKey: .falseFinishes)
        try c.encode(falseCancels, forKey: .falseCancels)
        try c.encode(flipProne, forKey: .flipProne)
        try c.encode(meanMargin, forKey: .meanMargin)
        try c.encode(minimumMargin, forKey: .minimumMargin)
        try c.encode(meanDiscontinuity, forKey: .meanDiscontinuity)
        try c.encode(meanCompletionTime, forKey: .meanCompletionTime)
    }
}
