extension PanModalRule {
    /// `snap(toYPosition:)` (`PanModal/Controller/PanModalPresentationController.swift`
    /// 642–649) → `PanModalAnimator.animate` (`PanModal/Animator/PanModalAnimator.swift`
    /// 23–38): `UIView.animate(withDuration: 0.5, usingSpringWithDamping: 0.8,
    /// initialSpringVelocity: 0)`, the presentable's defaults
    /// (`PanModalPresentable+Defaults.swift` 38–44). The finger's velocity is not carried.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        SheetSettle(
            from: release.position, to: sheet.position(of: outcome), velocity: 0,
            motion: .timed(duration: 0.5, easing: .durationSpring(dampingRatio: 0.8)),
            summary: "UIView spring 0.5 s, damping 0.8, initial velocity 0")
    }
}
