// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MPOSKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "MPOSCore", targets: ["MPOSCore"]),
        .library(name: "EMV", targets: ["EMV"]),
        .executable(name: "mpos", targets: ["mpos"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // Money, currencies, identifiers, the shared vocabulary and the error pattern. No I/O.
        .target(name: "MPOSCore"),
        // BER-TLV codec, EMV tag dictionary, value decoders, DOLs, Track 2 and PAN tools.
        .target(name: "EMV"),
        // The command-line tool.
        .executableTarget(
            name: "mpos",
            dependencies: [
                "MPOSCore", "EMV",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Speed figures as JSON lines; not a test.
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["MPOSCore", "EMV"],
            path: "Benchmarks"
        ),
        .testTarget(name: "MPOSCoreTests", dependencies: ["MPOSCore"]),
        .testTarget(
            name: "EMVTests",
            dependencies: ["EMV"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "mposTests", dependencies: ["mpos", "EMV"]),
    ],
    swiftLanguageModes: [.v6]
)
