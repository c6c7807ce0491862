/// A JSON object written field by field: the few messages a source sends, without a
/// `Codable` round trip per sample.
struct JSONText {
    private(set) var text = ""
    private var needsComma = false

    mutating func open() {
        comma()
        text += "{"
        needsComma = false
    }

    mutating func close() {
        text += "}"
        needsComma = true
    }

    mutating func openArray() {
        text += "["
        needsComma = false
    }

    mutating func closeArray() {
        text += "]"
        needsComma = true
    }

    mutating func key(_ name: String) {
        comma()
        Self.append(string: name, to: &text)
        text += ":"
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String) {
        key(name)
        Self.append(string: value, to: &text)
        needsComma = true
    }

    /// A finite number (callers check): Swift's shortest round-trip form, which JSON reads.
    mutating func field(_ name: String, _ value: Double) {
        key(name)
        text += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
        needsComma = true
    }

    private mutating func comma() {
        if needsComma { text += "," }
    }

    static func append(string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let digits = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
