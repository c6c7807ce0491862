// libFuzzer entry point for the .pantrace reader. Compiled together with the PanTrace
// sources by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address): any crash, trap, leak or
// sanitizer report on any input is a bug. Every input must end in a decoded trace or a
// PanTraceError, under small limits so the fuzzer also exercises the caps.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for salvages in [false, true] {
        let reader = TraceReader(configuration: TraceReader.Configuration(
            maximumFileBytes: 1 << 20, maximumChunkBytes: 1 << 16, maximumTotalBytes: 1 << 18, salvages: salvages))
        if let file = try? reader.decode(bytes) {
            // Whatever was read must encode again (it is on its own grid, so it cannot fail).
            _ = try! TraceEncoder.encode(file.trace)
        }
    }
    return 0
}
