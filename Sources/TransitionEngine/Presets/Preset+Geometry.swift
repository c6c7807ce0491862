extension Preset {
    /// The z-ordered layers (back to front) for rendered progress `r` on `screen`.
    ///
    /// `r` is not clamped: a rubber band or a spring overshoot past 1 moves the views past
    /// their end positions, which is how a bounce is drawn. Never allocates.
    public func layers(renderedProgress r: Double, screen: Size) -> LayerStack {
        var stack = LayerStack()
        writeLayers(renderedProgress: r, screen: screen, into: &stack)
        return stack
    }

    /// Writes the layers for `r` into `stack`, replacing its contents.
    public func writeLayers(renderedProgress r: Double, screen: Size, into stack: inout LayerStack) {
        stack.removeAll()
        let width = screen.width
        let height = screen.height
        let full = Rect(size: screen)
        switch name {
        case .zoom:
            // Pop: "the outgoing view scales 1 → 0.1" over the incoming view.
            stack.append(Layer(role: .incoming, frame: full))
            stack.append(Layer(role: .outgoing, frame: full, scale: 1 - (1 - settings.minimumScale) * r))
        case .zoomCustom:
            // "the outgoing view scales by |p − 1|".
            stack.append(Layer(role: .incoming, frame: full))
            stack.append(Layer(role: .outgoing, frame: full, scale: abs(r - 1)))
        case .drawer:
            switch settings.drawerStyle {
            case .reveal:
                // docs/MODEL.md §6.3 (LVMinePresentAnimation.swift): the drawer underneath narrows to
                // W − 50; the current screen slides right until its left edge is at W − 50; a
                // mask view over it fades to alpha 0.8.
                let open = max(0, width - settings.drawerGap)
                stack.append(Layer(role: .drawer, frame: Rect(x: 0, y: 0, width: width - (width - open) * r, height: height)))
                stack.append(Layer(role: .content, frame: full, translation: Vector2(x: open * r, y: 0)))
                stack.append(Layer(role: .dimming, frame: full, translation: Vector2(x: open * r, y: 0), alpha: settings.dimming * r))
            case .overlay:
                let drawerWidth = width * settings.drawerWidth
                stack.append(Layer(role: .content, frame: full))
                stack.append(
                    Layer(
                        role: .drawer,
                        frame: Rect(x: 0, y: 0, width: drawerWidth, height: height),
                        translation: Vector2(x: -drawerWidth * (1 - r), y: 0)
                    ))
            }
        case .circleReveal:
            // docs/MODEL.md §6.4: an oval from the zero rect at the button centre to
            // CGRectInset(buttonFrame, −R, −R), R = √(bx² + (H − by)²); the path's points move
            // linearly, so the semi-axes are r·(w/2 + R) and r·(h/2 + R).
            let center = Vector2(x: width * settings.buttonX, y: height * settings.buttonY)
            let dy = height - center.y
            let radius = (center.x * center.x + dy * dy).squareRoot()
            stack.append(Layer(role: .outgoing, frame: full))
            stack.append(
                Layer(
                    role: .incoming, frame: full,
                    mask: CircleMask(
                        center: center,
                        radius: max(0, (settings.buttonWidth / 2 + radius) * r),
                        radiusY: max(0, (settings.buttonHeight / 2 + radius) * r))))
        case .swipeDismiss:
            // "the presented view moves from its frame to y + H".
            stack.append(Layer(role: .presenting, frame: full))
            stack.append(Layer(role: .presented, frame: full, translation: Vector2(x: 0, y: height * r)))
        case .swipeBack:
            // docs/MODEL.md §6.6: the article's pop adds the incoming view above at alpha 0 and
            // fades it in (its image snapshot flying to the cell is not drawn).
            stack.append(Layer(role: .outgoing, frame: full))
            stack.append(Layer(role: .incoming, frame: full, alpha: min(1, max(0, r))))
        case .bouncePresent:
            // "comes up from y + H to its final frame".
            stack.append(Layer(role: .presenting, frame: full))
            stack.append(Layer(role: .presented, frame: full, translation: Vector2(x: 0, y: height * (1 - r))))
        case .semiModal:
            // docs/MODEL.md §6.8: final frame (0, H/3, W, H), a full screen tall with its lower
            // third off screen; corner radius 15; the presenting snapshot scales to 0.85.
            let top = height * settings.finalY
            stack.append(Layer(role: .presenting, frame: full, scale: 1 - (1 - settings.presentingScale) * r))
            stack.append(
                Layer(
                    role: .presented,
                    frame: Rect(x: 0, y: top, width: width, height: height),
                    translation: Vector2(x: 0, y: height * (1 - r)),
                    cornerRadius: settings.cornerRadius
                ))
        case .parallaxPush:
            // "incoming view from x = +W to 0 while the outgoing view moves 0 → −0.3·W, linear".
            stack.append(Layer(role: .outgoing, frame: full, translation: Vector2(x: -settings.parallax * width * r, y: 0)))
            stack.append(Layer(role: .incoming, frame: full, translation: Vector2(x: width * (1 - r), y: 0)))
        case .uikitPercent, .best:
            // A navigation-style pop: the top view leaves to +W, the one below slides in from −0.3·W.
            stack.append(Layer(role: .incoming, frame: full, translation: Vector2(x: -settings.parallax * width * (1 - r), y: 0)))
            stack.append(Layer(role: .outgoing, frame: full, translation: Vector2(x: width * r, y: 0)))
        }
    }
}
