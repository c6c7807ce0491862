internal import LiveBridge
internal import PanCapture
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// An error that is about the user's input or data, not about the program: its description
/// is the one line the user sees after `error:`, and the exit status is 1.
///
/// Each library's one error type is one of these; argument errors are not (they are
/// swift-argument-parser's, exit 64).
protocol UserFacingError: Error, CustomStringConvertible {}

extension PanTraceError: UserFacingError {}
extension CaptureError: UserFacingError {}
extension ReplayError: UserFacingError {}
extension TransitionEngineError: UserFacingError {}
extension LiveBridgeError: UserFacingError {}
extension CLIFailure: UserFacingError {}
