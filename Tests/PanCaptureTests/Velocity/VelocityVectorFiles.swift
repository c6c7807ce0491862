import Foundation

/// Finds and decodes the platforms' velocity test vectors in `testdata/velocity/` of the
/// shared data folder (``SharedData``): read where they live, never copied into `Tests/`.
enum VelocityVectorFiles {
    /// Why the vectors could not be read, as one line naming what was tried.
    struct LookupError: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether the vectors are there (tests that need them are skipped otherwise).
    static var isAvailable: Bool { SharedData.folder(SharedData.velocityVectors) != nil }

    /// The folder holding `android_velocitytracker.json` and `flutter_velocitytracker.json`.
    static func folder() throws -> URL {
        guard let folder = SharedData.folder(SharedData.velocityVectors) else {
            throw LookupError(description: "velocity vectors not found in \(SharedData.root.path); set \(SharedData.variable)")
        }
        return folder
    }

    /// Decodes one vector file.
    static func decode<Vectors: Decodable>(_ type: Vectors.Type, from fileName: String) throws -> Vectors {
        let url = try folder().appendingPathComponent(fileName)
        let data = insertingFractionBeforeZeroExponents(try Data(contentsOf: url))
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw LookupError(description: "\(url.path): cannot decode: \(error)")
        }
    }

    /// Rewrites the number tokens `0E3` / `-0e5` as `0.0E3` / `-0.0e5`, leaving strings alone.
    ///
    /// RFC 8259 allows an exponent right after a leading zero, and the vectors spell a zero
    /// expectation `0E3` as the Android source does, but Foundation's `JSONDecoder` in Swift
    /// 6.3.1 on Linux rejects that token as "not valid JSON" (`1E3`, `-0` and `4.5E3` are
    /// accepted). Inserting `.0` keeps the value exact.
    static func insertingFractionBeforeZeroExponents(_ data: Data) -> Data {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let zero = UInt8(ascii: "0")
        let minus = UInt8(ascii: "-")
        let dot = UInt8(ascii: ".")
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var isInString = false
        var isEscaped = false
        for (index, byte) in bytes.enumerated() {
            output.append(byte)
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == backslash {
                    isEscaped = true
                } else if byte == quote {
                    isInString = false
                }
                continue
            }
            if byte == quote {
                isInString = true
                continue
            }
            guard byte == zero, index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "e") || bytes[index + 1] == UInt8(ascii: "E")
            else {
                continue
            }
            // Only a token that is exactly `0` or `-0` so far: the byte before must not be a
            // digit or a dot (`10E3`, `1.0E3` are already accepted).
            let previous = index > 0 ? bytes[index - 1] : UInt8(ascii: " ")
            let isTokenStart =
                !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(previous) && previous != dot
            if isTokenStart || previous == minus {
                output.append(dot)
                output.append(zero)
            }
        }
        return Data(output)
    }
}
