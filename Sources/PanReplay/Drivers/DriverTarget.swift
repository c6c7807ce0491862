/// A UI test driver `pantrace emit` writes a gesture for (docs/EMIT.md).
///
/// The raw values are what `--to` accepts.
package enum DriverTarget: String, Sendable, Hashable, CaseIterable {
    /// W3C WebDriver Actions (`POST /session/{id}/actions`), a touch pointer.
    case webdriverTouch = "webdriver-touch"
    /// W3C WebDriver Actions, a mouse with its primary button held.
    case webdriverMouse = "webdriver-mouse"
    /// Jetpack Compose `performTouchInput { … }` (Kotlin source).
    case compose
    /// XCUITest `press(forDuration:thenDragTo:withVelocity:thenHoldForDuration:)` (Swift source).
    case xcuitest
    /// Maestro `swipe` (YAML flow).
    case maestro
    /// `adb shell input swipe`.
    case adb
    /// An `evemu-record` file for `evemu-device` and `evemu-play`.
    case evemu

    /// Whether the driver replays every recorded event at its own time (rather than a
    /// straight swipe with one duration or one velocity).
    /// The platform whose devices the driver runs on (`ios`, `android`), as recordings name
    /// their `source`; nil for drivers of any screen (WebDriver, evemu).
    package var platform: String? {
        switch self {
        case .xcuitest: "ios"
        case .compose, .maestro, .adb: "android"
        case .webdriverTouch, .webdriverMouse, .evemu: nil
        }
    }

    package var carriesPath: Bool {
        switch self {
        case .webdriverTouch, .webdriverMouse, .compose, .evemu: true
        case .xcuitest, .maestro, .adb: false
        }
    }

    /// The file extension of what is emitted.
    package var fileExtension: String {
        switch self {
        case .webdriverTouch, .webdriverMouse: "json"
        case .compose: "kt"
        case .xcuitest: "swift"
        case .maestro: "yaml"
        case .adb: "sh"
        case .evemu: "events"
        }
    }

    /// What the driver keeps of a recorded gesture and what it cannot carry, in one
    /// paragraph of plain sentences (docs/EMIT.md cites each).
    package var limitations: String {
        switch self {
        case .webdriverTouch, .webdriverMouse:
            "Every event is kept, at whole CSS pixels (chromedriver reads each position into an integer point) and whole "
                + "milliseconds (each tick's duration is an integer). The time between events is a parallel pause, so a "
                + "driver that interpolates pointerMove durations (the W3C spec allows it) moves in one step. chromedriver "
                + "sleeps a tick's duration after dispatching its events, so each synchronous dispatch adds its latency; the "
                + "emitted actions ask for asynchronous dispatch (chromedriver's asyncDispatch) so that the pauses alone keep time."
        case .compose:
            "Every event is kept: moveTo(position, delayMillis) sets each event's time in whole milliseconds and "
                + "positions are Float pixels in the node's coordinates; advanceEventTime holds before the lift. "
                + "The node is taken to fill the screen from its top-left corner."
        case .xcuitest:
            "A straight drag at one constant velocity: the path's shape and timing are lost. PanTrace keeps the "
                + "touch-down and lift points and picks the velocity the estimator read at the release; a release slower "
                + "than the floor becomes a drag followed by a hold (the estimators then read no velocity). XCUITest's "
                + "event rate is not documented; it is modelled at 60 Hz."
        case .maestro:
            "A straight swipe with one duration between whole-pixel points (Maestro's Android driver runs `input swipe`): "
                + "the path's shape, its timing and any hold before the lift are lost. The duration is chosen so that the "
                + "swipe's constant speed is the release velocity the estimator read."
        case .adb:
            "A straight swipe with one duration (InputShellCommand.sendSwipe interpolates moves in a loop until the "
                + "duration has passed, then lifts at the end point): the path's shape, its timing and any hold before "
                + "the lift are lost. The duration is chosen so that the constant speed is the release velocity the "
                + "estimator read. `input motionevent` carries points but one shell command per event, with no timing."
        case .evemu:
            "Every event is kept, to the microsecond, at whole device units (here eight per screen pixel); a move "
                + "that changes no coordinate is dropped, as the kernel drops it; evemu-play replays the recorded timing through uinput."
        }
    }
}
