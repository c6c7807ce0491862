extension PointerEvent.Phase {
    /// The phase named by the bytes `down`, `move`, `up` or `cancel`.
    init(bytes: ArraySlice<UInt8>) throws(CaptureError) {
        switch bytes.count {
        case 4 where bytes.elementsEqual("down".utf8): self = .down
        case 4 where bytes.elementsEqual("move".utf8): self = .move
        case 2 where bytes.elementsEqual("up".utf8): self = .up
        case 6 where bytes.elementsEqual("cancel".utf8): self = .cancel
        default: throw CaptureError(.unknownPhase(String(decoding: bytes.prefix(40), as: UTF8.self)))
        }
    }
}
