public import PanTrace

/// An error importing a pointer log or recording a gesture, with where it happened.
///
/// One public struct wrapping a private code, like ``PanTraceError``: new kinds of
/// failure can be added without breaking callers. ``description`` is the one line a user
/// sees: the log file, the 1-based line and the byte offset where the line starts, then the
/// problem.
public struct CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case malformedLine(String)
        case unknownPhase(String)
        case notFinite(field: String, text: String)
        case rejected(PanRecognizer.Rejection)
        case lineTooLong(limit: Int)
        case io(String)
        case unsupported(String)
        case invalidArgument(String)
        case recording(PanTraceError)
        case truncatedLine
        case endedMidGesture(path: String)
        case noRelease(pointer: Int)
        case noPointer
    }

    let code: Code
    /// The log file the problem is in, when there is one.
    public internal(set) var file: String?
    /// The 1-based line of the log.
    public internal(set) var line: Int?
    /// The byte offset in the log where that line starts.
    public internal(set) var byteOffset: Int?

    init(_ code: Code, file: String? = nil, line: Int? = nil, byteOffset: Int? = nil) {
        self.code = code
        self.file = file
        self.line = line
        self.byteOffset = byteOffset
    }

    /// The error ``GestureRecording/handle(_:)`` throws for an event the recognizer rejects,
    /// for a caller that runs a ``PanRecognizer`` itself (`pantrace live`); the importer adds
    /// the file and line.
    public init(rejected rejection: PanRecognizer.Rejection) {
        self.init(.rejected(rejection))
    }

    /// Whether this is only a warning the importer reports and carries on past: a last line
    /// cut off before its newline, or a gesture still in progress when the log ended.
    /// Why a lenient import may skip the line with this error, in a few words; nil for
    /// errors no line can be skipped past (unreadable file, missing axis ranges, a failed write).
    public var skipReason: String? {
        switch code {
        case .malformedLine: "unreadable line"
        case .unknownPhase: "unknown phase"
        case .notFinite: "not a finite number"
        case .unsupported: "unsupported line"
        case .noRelease, .noPointer: nil
        case .rejected(let rejection):
            switch rejection {
            case .notDown: "event of a pointer that is not down"
            case .alreadyDown: "down of a pointer already down (repeated event?)"
            case .timeGoesBackwards: "time goes backwards"
            case .nonFiniteLocation: "not a finite location"
            case .tooManyPointers: "too many pointers"
            }
        case .lineTooLong, .io, .invalidArgument, .recording, .truncatedLine, .endedMidGesture: nil
        }
    }

    public var isWarning: Bool {
        switch code {
        case .truncatedLine, .endedMidGesture: true
        default: false
        }
    }

    /// Whether storage failed rather than the data (``PanTraceError/isStorageFailure``).
    public var isStorageFailure: Bool {
        if case .io = code { return true }
        return recordingError?.isStorageFailure ?? false
    }

    /// The ``PanTraceError`` writing a recording failed with, if that is what happened.
    public var recordingError: PanTraceError? {
        if case .recording(let error) = code { return error }
        return nil
    }

    /// The same error with every location it does not already have filled in.
    func located(file: String?, line: Int?, byteOffset: Int?) -> CaptureError {
        var copy = self
        if copy.file == nil { copy.file = file }
        if copy.line == nil { copy.line = line }
        if copy.byteOffset == nil { copy.byteOffset = byteOffset }
        return copy
    }

    var problem: String {
        switch code {
        case .malformedLine(let why): why
        case .unknownPhase(let name): "unknown phase \"\(name)\" (expected down, move, up or cancel)"
        case .notFinite(let field, let text): "\(field) is not a finite number: \(text)"
        case .rejected(let rejection): rejection.description
        case .lineTooLong(let limit): "line longer than the \(limit)-byte read buffer (not a pointer log?)"
        case .io(let why): why
        case .unsupported(let why): why
        case .invalidArgument(let why): why
        case .recording(let error): error.description
        case .truncatedLine: "the log ends in the middle of this line (cut off); the partial line is ignored"
        case .endedMidGesture(let path): "the log ended before the pointer lifted; \(path) is left incomplete (no end mark)"
        case .noRelease(let pointer): "pointer \(pointer) never lifts or cancels, so there is no release velocity"
        case .noPointer: "the log has no down event"
        }
    }

    /// `log.csv: line 12 at byte 345: unknown phase "hover" …` — every known location, then the problem.
    public var description: String {
        if case .recording(let error) = code, line == nil {
            return error.description
        }
        var parts: [String] = []
        if let file { parts.append(file) }
        var location: [String] = []
        if let line { location.append("line \(line)") }
        if let byteOffset { location.append("at byte \(byteOffset)") }
        if !location.isEmpty { parts.append(location.joined(separator: " ")) }
        parts.append(problem)
        return parts.joined(separator: ": ")
    }
}
