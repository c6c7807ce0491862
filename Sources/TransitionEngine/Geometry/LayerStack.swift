/// A fixed-capacity, z-ordered list of layers that lives entirely inline (no heap).
///
/// Index 0 is the backmost layer. Presets produce at most ``capacity`` layers, so the
/// per-frame hot path can build a stack without allocating; ``FrameState`` copies it
/// into an array only when a frame is encoded.
public struct LayerStack: Sendable, Hashable, RandomAccessCollection {
    /// The maximum number of layers a stack holds.
    public static let capacity = 4

    private var storage: (Layer, Layer, Layer, Layer)
    /// The number of layers in the stack.
    public private(set) var count: Int

    private static let placeholder = Layer(role: .content, frame: .zero)

    /// Creates an empty stack.
    public init() {
        let placeholder = Self.placeholder
        storage = (placeholder, placeholder, placeholder, placeholder)
        count = 0
    }

    /// Creates a stack from `layers`, back to front.
    ///
    /// - Precondition: `layers.count <= LayerStack.capacity`.
    public init(_ layers: some Sequence<Layer>) {
        self.init()
        for layer in layers {
            append(layer)
        }
    }

    /// Appends `layer` in front of the others.
    ///
    /// - Precondition: the stack is not full.
    public mutating func append(_ layer: Layer) {
        precondition(count < Self.capacity, "LayerStack holds at most \(Self.capacity) layers")
        count += 1
        self[count - 1] = layer
    }

    /// Removes every layer, keeping the storage.
    public mutating func removeAll() {
        count = 0
    }

    /// The position of the backmost layer.
    public var startIndex: Int { 0 }
    /// One past the position of the frontmost layer.
    public var endIndex: Int { count }

    /// The layer at `index` (0 is backmost).
    public subscript(index: Int) -> Layer {
        get {
            precondition(index >= 0 && index < count, "LayerStack index out of range")
            switch index {
            case 0: return storage.0
            case 1: return storage.1
            case 2: return storage.2
            default: return storage.3
            }
        }
        set {
            precondition(index >= 0 && index < count, "LayerStack index out of range")
            switch index {
            case 0: storage.0 = newValue
            case 1: storage.1 = newValue
            case 2: storage.2 = newValue
            default: storage.3 = newValue
            }
        }
    }

    /// The first layer with `role`, if any.
    public func first(role: LayerRole) -> Layer? {
        for layer in self where layer.role == role {
            return layer
        }
        return nil
    }

    /// Two stacks are equal when they hold equal layers in the same order.
    public static func == (lhs: LayerStack, rhs: LayerStack) -> Bool {
        lhs.elementsEqual(rhs)
    }

    /// Hashes the layers in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for layer in self {
            hasher.combine(layer)
        }
    }
}
