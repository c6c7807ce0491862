internal import CLibWebSockets

/// Where the bridge's large buffers live, so memory a burst of them took goes back to the system
/// when they are freed.
///
/// A page that joins is sent a `hello` of its own (about 57 KB with the first hundred
/// recordings, `HelloTemplate`), and a release sends each watching page a `series` (about 100
/// KB for a 5 s gesture); lws keeps what a socket did not take in a buffer of the connection's
/// (`lib/core-net/output.c`). A thousand pages joining at once hold a thousand of each for a
/// moment. glibc's malloc serves blocks under its mmap threshold (128 KiB at first) from the heap,
/// and a heap freed in the middle is not given back (`malloc(3)`, `mallopt(3)`: `M_MMAP_THRESHOLD`):
/// the process stays as large as the burst made it. With a 32 KiB threshold each such block is a
/// mapping of its own, unmapped when freed (measured: 1,000 background pages joining cost 34 KiB
/// each instead of 53–68 KiB, `Benchmarks/bridge/load.py`'s idle clients). Smaller blocks, the
/// frames among them, stay on the heap. Setting the threshold also stops glibc from raising it
/// on its own, so the behaviour does not depend on what was freed earlier.
enum LargeBuffers {
    /// The size from which a block is a mapping of its own.
    static let mappedFrom = 32 * 1024

    /// Sets the threshold for the whole process (`serve` calls it once at start, through the
    /// C shim: `mallopt(M_MMAP_THRESHOLD, …)`); false if the C library refused.
    @discardableResult
    static func mapSeparately() -> Bool {
        pantrace_set_mmap_threshold(Int32(mappedFrom)) == 1
    }
}
