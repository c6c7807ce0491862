import Foundation

/// Finds and decodes the platforms' velocity test vectors in `shared/testdata/velocity/`.
///
/// The vectors are read where they live, never copied into `Tests/`. The folder is found, in
/// order: from `PANTRACE_SHARED` (the path of the `shared` folder); else by walking up from
/// this source file — both as written in `#filePath` and with symlinks resolved, because a
/// scratch package may reach this folder through a symlink — and taking the first ancestor
/// that has `shared/testdata/velocity` (for `/work/main/Tests/PanCaptureTests/Velocity/…`
/// that is `/work`, four levels up).
enum VelocityVectorFiles {
    /// Why the vectors could not be read, as one line naming what was tried.
    struct LookupError: Error, CustomStringConvertible {
        var description: String
    }

    static let relativeFolder = "testdata/velocity"

    /// The folder holding `android_velocitytracker.json` and `flutter_velocitytracker.json`.
    static func folder(filePath: String = #filePath) throws -> URL {
        let fileManager = FileManager.default
        let environment = ProcessInfo.processInfo.environment
        if let shared = environment["PANTRACE_SHARED"], !shared.isEmpty {
            let folder = URL(fileURLWithPath: shared).appendingPathComponent(relativeFolder)
            guard fileManager.fileExists(atPath: folder.path) else {
                throw LookupError(
                    description: "PANTRACE_SHARED=\(shared) has no \(relativeFolder) folder")
            }
            return folder
        }

        let written = URL(fileURLWithPath: filePath)
        var tried: [String] = []
        for start in [written.resolvingSymlinksInPath(), written] {
            var directory = start.deletingLastPathComponent()
            while directory.path != "/" && !directory.path.isEmpty {
                let candidate = directory.appendingPathComponent("shared")
                    .appendingPathComponent(relativeFolder)
                if fileManager.fileExists(atPath: candidate.path) {
                    return candidate
                }
                tried.append(candidate.path)
                directory = directory.deletingLastPathComponent()
            }
        }
        throw LookupError(
            description: "velocity vectors not found; set PANTRACE_SHARED to the shared folder "
                + "(tried \(tried.first ?? "nothing") and \(tried.count - 1) more)")
    }

    /// Decodes one vector file.
    static func decode<Vectors: Decodable>(
        _ type: Vectors.Type, from fileName: String, filePath: String = #filePath
    ) throws -> Vectors {
        let url = try folder(filePath: filePath).appendingPathComponent(fileName)
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
