/// The sheet libraries PanTrace reproduces (docs/MODEL.md §9.3).
public enum DetentPresetName: String, Sendable, Hashable, Codable, CaseIterable {
    /// scenee/FloatingPanel, the default behaviour.
    case floatingpanel
    /// emilkowalski/vaul with snap points.
    case vaul
    /// Material Components for Android, `BottomSheetBehavior`.
    case mdcBottomsheet = "mdc-bottomsheet"
    /// Jetpack Compose foundation, `anchoredDraggable` with its defaults.
    case composeAnchored = "compose-anchored"
    /// Jetpack Compose Material 3 sheets (`anchoredDraggable` with the sheets' thresholds).
    case m3Sheet = "m3-sheet"
    /// Flutter's `DraggableScrollableSheet` with `snap: true`.
    case flutterSheet = "flutter-sheet"
    /// gorhom/react-native-bottom-sheet.
    case gorhom
    /// slackhq/PanModal.
    case panmodal
    /// Chromium's CSS scroll snap (`scroll-snap-type: y mandatory`) after a touch fling.
    case cssScrollSnap = "css-scroll-snap"

    /// The gate the library puts on the estimator's velocity before its rule reads it (the
    /// estimator itself is the replay's choice: `PanReplay` knows each library's).
    public var velocityGate: DetentVelocityGate {
        switch self {
        case .floatingpanel, .panmodal, .gorhom, .composeAnchored, .m3Sheet: .none
        case .vaul: .pressMean
        case .mdcBottomsheet: .androidClamp
        case .flutterSheet: .flutterFling
        case .cssScrollSnap: .none
        }
    }

    /// One line for the catalog.
    public var summary: String {
        switch self {
        case .floatingpanel:
            "FloatingPanel: project 0.499 s of velocity, take the detent segment it lands in (one beyond the release at most), go on past 50 % of it."
        case .vaul: "vaul: mean speed over the whole press; > 2 px/ms jumps to an end, > 0.4 px/ms steps one snap point, else the nearest."
        case .mdcBottomsheet:
            "Material BottomSheetBehavior: any upward fling expands, a downward one takes the nearer of half and collapsed; slow releases read as 0."
        case .composeAnchored:
            "Compose anchoredDraggable: a fling ≥ 125 dp/s goes to the closest anchor its way, else on once half the gap is covered."
        case .m3Sheet: "Material 3 sheet: from the settled anchor, a fling ≥ 125 dp/s its way goes to the next anchor, else on once 56 dp away."
        case .flutterSheet: "Flutter DraggableScrollableSheet: a fling goes to the next snap size its way, else the nearest."
        case .gorhom: "gorhom bottom sheet: the snap point nearest the position plus 0.2 s of velocity; no skip limit."
        case .panmodal: "PanModal: faster than 300 pt/s goes up to long form or down to the nearer of short form and dismiss; else the nearest."
        case .cssScrollSnap:
            "Chromium CSS scroll snap: the fling's decaying frames predict its end; the snap point ahead nearest it (the first ahead with scroll-snap-stop: always)."
        }
    }

    /// The library's source, as docs/MODEL.md §9.3 cites it.
    public var source: String {
        switch self {
        case .floatingpanel: "scenee/FloatingPanel@7efcc769 Sources/Core.swift:1049–1107, Sources/Layout.swift:832–857"
        case .vaul: "emilkowalski/vaul@3e97aac6 src/use-snap-points.ts onRelease, src/index.tsx onRelease"
        case .mdcBottomsheet: "material-components-android BottomSheetBehavior.java onViewReleased; androidx ViewDragHelper.clampMag"
        case .composeAnchored: "androidx@00670133 compose/foundation/.../gestures/AnchoredDraggable.kt:1486–1515"
        case .m3Sheet: "androidx compose/material3/.../internal/AnchoredDraggable.kt:437–472; SheetDefaults.kt:404–406"
        case .flutterSheet: "flutter packages/flutter/lib/src/widgets/draggable_scrollable_sheet.dart _getSnapSize"
        case .gorhom: "gorhom/react-native-bottom-sheet src/utilities/snapPoint.ts, useGestureEventsHandlersDefault.tsx handleOnEnd"
        case .panmodal: "slackhq/PanModal PanModal/Controller/PanModalPresentationController.swift:502–547"
        case .cssScrollSnap:
            "chromium cc/input/snap_fling_controller.cc, snap_fling_curve.cc, scroll_snap_data.cc; ui/events/gestures/physics_based_fling_curve.cc"
        }
    }
}
