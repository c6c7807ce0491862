internal import Foundation
internal import PanTrace
internal import TransitionEngine

/// Each library's code. Every identifier is the library's own (docs/MODEL.md §9.3 names the
/// files); the only outside text is in comments, escaped by ``SheetEmitter/commentLines(style:)``.
extension SheetEmitter {
    /// FloatingPanel: a `FloatingPanelBehavior` (`Sources/Behavior.swift`), as the library's
    /// own examples implement it, and the controller's removal switch.
    func floatingPanelSwift(_ rule: FloatingPanelRule) -> String {
        var lines = commentLines()
        lines += [
            "import FloatingPanel",
            "import UIKit",
            "",
            "/// The release PanTrace tuned: `fpc.behavior = TunedPanelBehavior()` and",
            "/// `fpc.isRemovalInteractionEnabled = TunedPanelBehavior.isRemovalInteractionEnabled`.",
            "final class TunedPanelBehavior: FloatingPanelBehavior {",
            "    static let isRemovalInteractionEnabled = \(rule.removesOnSwipe)",
            "    let momentumProjectionRate: CGFloat = \(Self.decimal(rule.projectionRate))",
            "    let removalInteractionVelocityThreshold: CGFloat = \(Self.decimal(rule.removalThreshold))",
            "",
            "    func redirectionalProgress(_ fpc: FloatingPanelController, from: FloatingPanelState, to: FloatingPanelState) -> CGFloat {",
            "        \(Self.decimal(rule.redirectionalProgress))",
            "    }",
            "",
            "    func shouldProjectMomentum(_ fpc: FloatingPanelController, to proposedState: FloatingPanelState) -> Bool {",
            "        \(rule.projectsMomentum)",
            "    }",
            "}"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// PanModal: of what PanTrace models, `PanModalPresentable` carries `allowsDragToDismiss`.
    func panModalSwift(_ rule: PanModalRule) -> String {
        var lines = commentLines()
        lines += [
            "import PanModal",
            "import UIKit",
            "",
            "/// Return these from your PanModalPresentable view controller's properties of the same names.",
            "enum TunedPanModal {",
            "    static let allowsDragToDismiss = \(rule.allowsDragToDismiss)",
            "}"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// vaul: `Drawer.Root`'s props (`src/index.tsx`), as JSON, with what cannot be set and the
    /// gestures still wrong beside them (JSON has no comments).
    func vaulJSON(_ rule: VaulRule) -> String {
        var object: [String: JSONValue] = [
            "generated_by": .string("pantrace: do not edit by hand; run the command again instead"),
            "provenance": .array(provenance.map { .string($0) }),
            "props": .object([
                "closeThreshold": .number(rule.closeThreshold),
                "dismissible": .bool(rule.dismissible),
                "snapToSequentialPoint": .bool(rule.snapsSequentially)
            ])
        ]
        object["cannot_set"] = .array(
            unshippable.map {
                .object(["key": .string($0.key), "value": $0.value.jsonValue, "kept": $0.libraryValue.jsonValue, "why": .string($0.why)])
            })
        object["still_wrong"] = .array(
            stillWrong.map {
                .object([
                    "file": .string($0.file), "start": .number(Double($0.start)), "meant": $0.meant.jsonValue, "landed": $0.landed.jsonValue,
                    "landing": .string($0.landing.rawValue)
                ])
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        // A JSONValue of strings, numbers and booleans always encodes.
        return String(decoding: (try? encoder.encode(JSONValue.object(object))) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    /// gorhom: `<BottomSheet>`'s props and, when the projection is not 0.2 s, a
    /// `gestureEventsHandlersHook` around the default one: its `handleOnEnd` calls
    /// `snapPoint` (`src/utilities/snapPoint.ts`, `value + 0.2 * velocity`), so the hook hands
    /// it the velocity scaled by projection ÷ 0.2.
    func gorhomJS(_ rule: GorhomRule) -> String {
        let projection = rule.projection
        var lines = commentLines()
        if projection != 0.2 {
            lines += [
                "// gorhom's handleOnEnd projects 0.2 s of velocity (src/utilities/snapPoint.ts, not exported). This hook",
                "// hands the default handleOnEnd the velocity times PROJECTION_SECONDS / 0.2, so its snapPoint projects",
                "// PROJECTION_SECONDS; the settle animation then starts at that velocity / 2 as well.",
                "import { useCallback } from 'react';",
                "import { useGestureEventsHandlersDefault } from '@gorhom/bottom-sheet';",
                "",
                "export const PROJECTION_SECONDS = \(Self.literal(projection));",
                "",
                "export function useTunedGestureEventsHandlers() {",
                "  const handlers = useGestureEventsHandlersDefault();",
                "  const defaultOnEnd = handlers.handleOnEnd;",
                "  const handleOnEnd = useCallback(",
                "    function handleOnEnd(source, payload) {",
                "      'worklet';",
                "      defaultOnEnd(source, { ...payload, velocityY: payload.velocityY * (PROJECTION_SECONDS / 0.2) });",
                "    },",
                "    [defaultOnEnd]",
                "  );",
                "  return { ...handlers, handleOnEnd };",
                "}",
                "",
                "/** Spread into <BottomSheet {...tunedBottomSheetProps} snapPoints={…}>. */",
                "export const tunedBottomSheetProps = {",
                "  enablePanDownToClose: \(rule.closesOnPanDown),",
                "  gestureEventsHandlersHook: useTunedGestureEventsHandlers,",
                "};"
            ]
        } else {
            lines += [
                "/** Spread into <BottomSheet {...tunedBottomSheetProps} snapPoints={…}>. */",
                "export const tunedBottomSheetProps = {",
                "  enablePanDownToClose: \(rule.closesOnPanDown),",
                "};"
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Material Components: `BottomSheetBehavior`'s setters (significant velocity since
    /// 1.8.0, hide friction since 1.7.0).
    func materialKotlin(_ rule: MaterialBottomSheetRule) -> String {
        var lines = commentLines()
        lines += [
            "import android.view.View",
            "import com.google.android.material.bottomsheet.BottomSheetBehavior",
            "",
            "/** Applies the tuned release to a sheet's behavior: BottomSheetBehavior.from(sheet).applyTunedRelease(). */",
            "fun <V : View> BottomSheetBehavior<V>.applyTunedRelease() {",
            "    setSignificantVelocityThreshold(\(Int(rule.significantVelocity.rounded())))  // px/s",
            "    setHideFriction(\(Self.decimal(rule.hideFriction))f)",
            "    setHideable(\(rule.hideable))",
            "    setSkipCollapsed(\(rule.skipsCollapsed))",
            "}"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Compose foundation: `Modifier.anchoredDraggable`'s fling behavior with the positional
    /// threshold (the velocity threshold is fixed there).
    func composeKotlin(_ rule: AnchoredRule) -> String {
        var lines = commentLines()
        lines += [
            "import androidx.compose.foundation.gestures.AnchoredDraggableDefaults",
            "import androidx.compose.foundation.gestures.AnchoredDraggableState",
            "import androidx.compose.foundation.gestures.TargetedFlingBehavior",
            "import androidx.compose.runtime.Composable",
            "",
            "/** Modifier.anchoredDraggable(state, orientation, flingBehavior = tunedFlingBehavior(state)). */",
            "@Composable",
            "fun <T> tunedFlingBehavior(state: AnchoredDraggableState<T>): TargetedFlingBehavior =",
            "    AnchoredDraggableDefaults.flingBehavior(state, positionalThreshold = { distance -> distance * \(Self.decimal(rule.positionalFraction))f })"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Material 3: a `SheetState` built with the thresholds (`rememberModalBottomSheetState`
    /// takes none).
    func material3Kotlin(_ rule: Material3SheetRule) -> String {
        var lines = commentLines()
        lines += [
            "import androidx.compose.material3.ExperimentalMaterial3Api",
            "import androidx.compose.material3.SheetState",
            "import androidx.compose.runtime.Composable",
            "import androidx.compose.runtime.remember",
            "import androidx.compose.ui.platform.LocalDensity",
            "import androidx.compose.ui.unit.dp",
            "",
            "/** ModalBottomSheet(onDismissRequest, sheetState = rememberTunedSheetState()). Not saved across recreation. */",
            "@OptIn(ExperimentalMaterial3Api::class)",
            "@Composable",
            "fun rememberTunedSheetState(skipPartiallyExpanded: Boolean = false): SheetState {",
            "    val density = LocalDensity.current",
            "    return remember(density, skipPartiallyExpanded) {",
            "        SheetState(",
            "            skipPartiallyExpanded = skipPartiallyExpanded,",
            "            positionalThreshold = { with(density) { \(Self.decimal(rule.positionalThreshold)).dp.toPx() } },",
            "            velocityThreshold = { with(density) { \(Self.decimal(rule.velocityThreshold)).dp.toPx() } },",
            "        )",
            "    }",
            "}"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Flutter: `DraggableScrollableSheet`'s `_getSnapSize` reads the fling tolerance of the
    /// scrollable's physics (`physics.toleranceFor`): physics with the tuned tolerance.
    func flutterDart(_ rule: FlutterSheetRule) -> String {
        var lines = commentLines()
        lines += [
            "import 'package:flutter/physics.dart';",
            "import 'package:flutter/widgets.dart';",
            "",
            "/// Give the sheet's scrollable these physics: DraggableScrollableSheet(snap: true, snapSizes: …,",
            "/// builder: (context, controller) => ListView(controller: controller, physics: const TunedSheetPhysics(), …)).",
            "class TunedSheetPhysics extends ClampingScrollPhysics {",
            "  const TunedSheetPhysics({super.parent});",
            "",
            "  @override",
            "  TunedSheetPhysics applyTo(ScrollPhysics? ancestor) => TunedSheetPhysics(parent: buildParent(ancestor));",
            "",
            "  @override",
            "  Tolerance toleranceFor(ScrollMetrics metrics) =>",
            "      Tolerance(velocity: \(Self.decimal(rule.velocityTolerance)), distance: super.toleranceFor(metrics).distance);",
            "}"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// CSS scroll snap: the page's part is `scroll-snap-stop`.
    func scrollSnapCSS(_ rule: CssScrollSnapRule) -> String {
        var lines = ["/*"] + commentLines(style: "/*") + [" */"]
        lines += [
            ".sheet {",
            "  overflow-y: scroll;",
            "  scroll-snap-type: y mandatory;",
            "}",
            "",
            ".sheet > .detent {",
            "  scroll-snap-align: start;",
            "  scroll-snap-stop: \(rule.stopsAlways ? "always" : "normal");",
            "}"
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
