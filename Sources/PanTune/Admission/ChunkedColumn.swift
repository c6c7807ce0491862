/// A column that grows a chunk at a time: appending never copies what is kept, and the room
/// kept ahead is at most one chunk, where an array that doubles keeps up to as much again as
/// it holds (and both copies while it grows). For the columns ``TunedTraces`` keeps per
/// gesture, which reach tens of millions of elements.
package struct ChunkedColumn<Element: Sendable>: Sendable, RandomAccessCollection {
    /// Elements a chunk holds.
    package static var chunkSize: Int { 1 << 16 }

    private var chunks: [[Element]] = []
    package private(set) var count = 0

    package init() {}

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    @inline(__always)
    package subscript(index: Int) -> Element { chunks[index >> 16][index & 0xFFFF] }

    package mutating func append(_ element: Element) {
        if count & 0xFFFF == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    package mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }
}
