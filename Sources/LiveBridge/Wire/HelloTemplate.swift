internal import Foundation

/// A `hello` encoded once for every page that joins a quiet scene, with each page's number
/// written in: the `hello`s of such pages differ only in `page` (docs/PROTOCOL.md §2), and the
/// preset catalog in them is most of their bytes, so a thousand pages joining cost one encoding.
///
/// The template is the hello encoded with `page` −1, which no page has; with sorted keys the
/// top-level `"page":-1` comes before `"server"`, and the number is spliced in there.
struct HelloTemplate: Sendable {
    private let prefix: [UInt8]
    private let suffix: [UInt8]

    static let marker = Array(#""page":-1,"#.utf8)

    /// The template of `hello` (its own page number is ignored), encoded by `encoder`, which
    /// must sort keys; nil when the marker is not found once.
    init?(_ hello: Hello, encoder: JSONEncoder) {
        var template = hello
        template.page = -1
        guard let bytes = try? Array(encoder.encode(ServerMessage.hello(template))),
            let range = Self.firstRange(of: Self.marker, in: bytes)
        else { return nil }
        prefix = Array(bytes[..<range.lowerBound]) + Array(#""page":"#.utf8)
        suffix = Array(bytes[(range.upperBound - 1)...])
    }

    /// The hello of page `page`.
    func bytes(forPage page: Int) -> [UInt8] { prefix + Array(String(page).utf8) + suffix }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
        }
        return nil
    }
}
