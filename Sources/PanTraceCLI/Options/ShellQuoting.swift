internal import Foundation

/// A command line as text a POSIX shell reads back as the same arguments: an argument made
/// only of characters no shell treats specially stays as it is; any other is put in single
/// quotes, each `'` in it written `'\''`. The same rule as Python's `shlex.quote`.
///
/// What the text may then hold (a newline inside quotes, say) is for the place it goes to
/// make safe: generated code escapes it (`SourceText`).
enum ShellQuoting {
    /// `pantrace` and the arguments this process was given, quoted.
    static var invocation: String {
        quoted(["pantrace"] + CommandLine.arguments.dropFirst())
    }

    static func quoted(_ arguments: [String]) -> String {
        arguments.map(quoted).joined(separator: " ")
    }

    static func quoted(_ argument: String) -> String {
        let plain = argument.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
        }
        if plain && !argument.isEmpty { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
