// swift-tools-version: 6.1
import PackageDescription

// Swift 6 language mode and these upcoming features everywhere.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility")
]

let package = Package(
    name: "PanTrace",
    products: [
        .executable(name: "pantrace", targets: ["pantrace"]),
        .library(name: "PanTrace", targets: ["PanTrace"]),
        .library(name: "PanCapture", targets: ["PanCapture"]),
        // The pure transition engine, for apps and tools that want the model without files or
        // a server: documented public API (docs/MODEL.md). PanReplay and LiveBridge are not
        // products: what they share with the CLI and the tests is `package` access.
        .library(name: "TransitionEngine", targets: ["TransitionEngine"]),
        // The device side of a live link (docs/LIVE.md): an app streams its pan recognizer's
        // samples to a running `pantrace serve`.
        .library(name: "PanTraceLive", targets: ["PanTraceLive"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // PanTraceLive's WebSocket client on Linux only (Foundation's WebSocket task fails there:
        // "WebSockets not supported by libcurl"); Apple platforms use URLSessionWebSocketTask.
        .package(url: "https://github.com/apple/swift-nio", "2.101.2"..<"2.102.0")
    ],
    targets: [
        // zlib through a system-library module; shim.h wraps the macros Swift cannot import.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libwebsockets 4.1.6 (Debian 12); shim.h wraps LWS_PRE, which Swift cannot import.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .target(
            name: "PanTrace",
            dependencies: ["CZlib"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PanCapture",
            dependencies: ["PanTrace"],
            swiftSettings: strictSettings
        ),
        // The pure engine: stdlib only (and libm for exp/sin/cos), no I/O, no clock.
        .target(
            name: "TransitionEngine",
            swiftSettings: strictSettings
        ),
        // Replays a gesture through the engine on an injected clock; the corpus walker; the
        // drivers of `pantrace emit`.
        .target(
            name: "PanReplay",
            dependencies: ["PanTrace", "PanCapture", "TransitionEngine"],
            swiftSettings: strictSettings
        ),
        // The tuner: admits labelled gestures, sweeps a grid, reports, and writes code for the
        // setting it finds (two-state presets and sheet libraries alike).
        .target(
            name: "PanTune",
            dependencies: ["PanTrace", "PanCapture", "TransitionEngine", "PanReplay"],
            swiftSettings: strictSettings
        ),
        // The live wire between a device and the server, defined once for both ends: message
        // types, sample states and what makes a source or a sample valid.
        .target(
            name: "PanLiveWire",
            dependencies: ["PanTrace", "PanCapture"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LiveBridge",
            dependencies: ["PanTrace", "PanCapture", "PanReplay", "PanTune", "TransitionEngine", "PanLiveWire", "CLibWebSockets"],
            swiftSettings: strictSettings
        ),
        // The live link's queue, acknowledgements and backoff are a pure core (LinkCore); the
        // transport is URLSessionWebSocketTask on Apple platforms and SwiftNIO on Linux, so an
        // iOS app never links NIO.
        .target(
            name: "PanTraceLive",
            dependencies: [
                "PanTrace",
                "PanCapture",
                "PanLiveWire",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(platforms: [.linux]))
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PanTraceCLI",
            dependencies: [
                "PanTrace",
                "PanCapture",
                "TransitionEngine",
                "PanReplay",
                "PanTune",
                "LiveBridge",
                "PanTraceLive",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pantrace",
            dependencies: [
                "PanTraceCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            swiftSettings: strictSettings
        ),
        // Benchmarks only: timing helpers shared by the benchmark executables.
        .target(
            name: "BenchmarkSupport",
            path: "Benchmarks/BenchmarkSupport",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CodecBench",
            dependencies: ["PanTrace", "PanCapture", "BenchmarkSupport"],
            path: "Benchmarks/CodecBench",
            swiftSettings: strictSettings
        ),
        // Benchmarks only: defines malloc/free for the whole process to count allocations.
        // Never a dependency of a library or of the CLI.
        .target(
            name: "MallocCounter",
            path: "Benchmarks/MallocCounter"
        ),
        .executableTarget(
            name: "EngineBench",
            dependencies: ["TransitionEngine", "MallocCounter"],
            path: "Benchmarks/EngineBench",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CaptureBench",
            dependencies: ["PanCapture", "PanTrace", "BenchmarkSupport"],
            path: "Benchmarks/CaptureBench",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ReplayBench",
            dependencies: ["PanReplay", "PanTune", "PanCapture", "PanTrace", "TransitionEngine", "BenchmarkSupport"],
            path: "Benchmarks/ReplayBench",
            swiftSettings: strictSettings
        ),
        // Benchmarks only: the threshold sweep, driven by Benchmarks/tune/peer.py against numpy.
        .executableTarget(
            name: "TuneBench",
            dependencies: ["PanReplay", "PanTune", "PanCapture", "PanTrace", "TransitionEngine", "BenchmarkSupport"],
            path: "Benchmarks/TuneBench",
            swiftSettings: strictSettings
        ),
        // Tests only: the one temporary-folder helper every Swift test target uses.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        // Tests only: seeded synthetic gestures the replay and tuner tests share.
        .target(
            name: "GestureFixtures",
            dependencies: ["PanCapture", "PanTrace", "TransitionEngine"],
            path: "Tests/GestureFixtures",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PanReplayTests",
            dependencies: ["TestSupport", "GestureFixtures", "PanReplay", "PanCapture", "PanTrace", "TransitionEngine"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PanTuneTests",
            dependencies: ["TestSupport", "GestureFixtures", "PanTune", "PanReplay", "PanCapture", "PanTrace", "TransitionEngine"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LiveBridgeTests",
            dependencies: [
                "TestSupport", "LiveBridge", "PanTrace", "PanCapture", "PanReplay", "PanTune", "TransitionEngine", "PanLiveWire", "PanTraceLive"
            ],
            // Read from disk by path: the viewer's JavaScript tests read the same files.
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TransitionEngineTests",
            dependencies: ["TransitionEngine"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PanTraceTests",
            dependencies: ["TestSupport", "PanTrace", "PanCapture"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PanCaptureTests",
            dependencies: ["TestSupport", "PanCapture", "PanTrace"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PanTraceLiveTests",
            dependencies: ["TestSupport", "PanTraceLive", "PanCapture", "PanTrace", "pantrace"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PanTraceCLITests",
            dependencies: [
                "TestSupport",
                "PanTraceCLI", "PanTrace", "PanCapture", "TransitionEngine", "pantrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // Sheet libraries' own test vectors, read from disk by path, with their licences.
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        )
    ]
)
