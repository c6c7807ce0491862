public import ArgumentParser
public import PanCapture
public import PanTrace

// The one way the CLI parses the libraries' enums: each is `ExpressibleByArgument` through its
// raw value, so an option of that type lists its values in `--help` and a wrong one is an
// argument error naming them (exit 64).
extension Intent: ExpressibleByArgument {}
extension ScreenEdge: ExpressibleByArgument {}
extension VelocityStrategy: ExpressibleByArgument {}
extension PointerLogFormat: ExpressibleByArgument {}
extension GestureKind: ExpressibleByArgument {}
extension GestureScenario: ExpressibleByArgument {}
