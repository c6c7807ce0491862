/// One drawable layer of a transition at a moment in time.
///
/// A viewer draws `frame`, then applies `scale` about the frame's centre, then
/// `translation`, then clips to `mask` (in screen coordinates) and to `cornerRadius`,
/// with `alpha`. It needs to know nothing about the preset that produced the layer.
public struct Layer: Sendable, Hashable, Codable {
    /// What the layer shows, so a viewer can colour it.
    public var role: LayerRole
    /// The untransformed frame in points.
    public var frame: Rect
    /// A uniform scale about the centre of `frame`; 1 is identity.
    public var scale: Double
    /// A translation in points applied after the scale.
    public var translation: Vector2
    /// Opacity in [0, 1].
    public var alpha: Double
    /// The corner radius in points.
    public var cornerRadius: Double
    /// An optional circular or oval mask in screen coordinates.
    public var mask: CircleMask?

    /// Creates a layer; everything but the role and frame defaults to identity.
    @inlinable
    public init(
        role: LayerRole,
        frame: Rect,
        scale: Double = 1,
        translation: Vector2 = .zero,
        alpha: Double = 1,
        cornerRadius: Double = 0,
        mask: CircleMask? = nil
    ) {
        self.role = role
        self.frame = frame
        self.scale = scale
        self.translation = translation
        self.alpha = alpha
        self.cornerRadius = cornerRadius
        self.mask = mask
    }

    /// The frame after scale (about its centre) and translation, ignoring the mask.
    public var presentedFrame: Rect {
        let width = frame.width * scale
        let height = frame.height * scale
        let centerX = frame.x + frame.width / 2 + translation.x
        let centerY = frame.y + frame.height / 2 + translation.y
        return Rect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    }

    /// JSON keys in snake_case, the one key style of PanTrace's JSON (docs/PROTOCOL.md §4).
    private enum CodingKeys: String, CodingKey {
        case role, frame, scale, translation, alpha, mask
        case cornerRadius = "corner_radius"
    }
}

/// What a layer represents in the transition.
public enum LayerRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// The screen being left (UIKit's `from` view).
    case outgoing
    /// The screen being shown (UIKit's `to` view).
    case incoming
    /// A view presented modally over another.
    case presented
    /// The view (or its snapshot) underneath a modal presentation.
    case presenting
    /// A drawer panel.
    case drawer
    /// The content a drawer slides over.
    case content
    /// A mask view over another layer, drawn as a veil whose opacity is the layer's alpha.
    case dimming
}
