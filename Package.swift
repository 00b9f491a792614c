// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MPOSKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "MPOSCore", targets: ["MPOSCore"]),
        .library(name: "EMV", targets: ["EMV"]),
        .library(name: "CardCrypto", targets: ["CardCrypto"]),
        .library(name: "ReaderLink", targets: ["ReaderLink"]),
        .library(name: "ReaderLinkTCP", targets: ["ReaderLinkTCP"]),
        .library(name: "SandboxCards", targets: ["SandboxCards"]),
        .library(name: "ReaderSimulator", targets: ["ReaderSimulator"]),
        .library(name: "PrinterSimulator", targets: ["PrinterSimulator"]),
        .library(name: "GatewayAPI", targets: ["GatewayAPI"]),
        .library(name: "TerminalAPI", targets: ["TerminalAPI"]),
        .library(name: "SandboxGateway", targets: ["SandboxGateway"]),
        .library(name: "MPOSKit", targets: ["MPOSKit"]),
        .library(name: "MPOSKitNIO", targets: ["MPOSKitNIO"]),
        .library(name: "MPOSTestSupport", targets: ["MPOSTestSupport"]),
        .executable(name: "mpos", targets: ["mpos"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // `swift package generate-documentation --target MPOSKit` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // HTTPS for the Linux gateway transport (MPOSKitNIO); never linked by MPOSKit itself.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        // Self-signed certificates generated at run time by the TLS tests.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.1.0"),
        // The gateway's PostgreSQL backend (several gateway instances on one database).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
    ],
    targets: [
        // Money, currencies, identifiers, the shared vocabulary and the error pattern. No I/O.
        .target(name: "MPOSCore"),
        // BER-TLV codec, EMV tag dictionary, value decoders, DOLs, Track 2 and PAN tools.
        .target(name: "EMV"),
        // Card-side cryptography shared by the simulated reader and the sandbox issuer:
        // AES DUKPT (ANSI X9.24-3), EMV session keys, ARQC/ARPC, and the published sandbox keys.
        .target(
            name: "CardCrypto",
            dependencies: [
                "EMV",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The open reader protocol: frames, fragmentation, messages, pairing, session security,
        // the transport seam and the in-process transport.
        .target(
            name: "ReaderLink",
            dependencies: [
                "EMV", "MPOSCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // TCP client and server transports for ReaderLink (SwiftNIO), kept apart so that the SDK
        // itself carries no networking dependency.
        .target(
            name: "ReaderLinkTCP",
            dependencies: [
                "ReaderLink", "MPOSCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The sandbox's test cards (numbers, keys, balances, behaviours) and scenario triggers:
        // one catalog that the simulated reader and the sandbox issuer both read.
        .target(name: "SandboxCards", dependencies: ["EMV", "MPOSCore", "CardCrypto"]),
        // A complete card reader in software.
        .target(
            name: "ReaderSimulator",
            dependencies: [
                "ReaderLink", "EMV", "MPOSCore", "CardCrypto", "SandboxCards",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A sandbox card put into a PC/SC reader through vsmartcard's vpcd driver: the card side of
        // the vpcd protocol, for `mpos card emulate` and the tests on the real smart-card stack.
        .target(name: "VirtualSmartCard", dependencies: ["ReaderSimulator", "ReaderLink", "ReaderLinkTCP"]),
        // The EMV kernel against the card in a PC/SC reader, for `mpos reader pcsc`: pcsc-lite is
        // opened at run time (libpcsclite.so.1), so building needs no PC/SC headers.
        .target(name: "PCSCReader", dependencies: ["ReaderSimulator"]),
        // The code page tables of receipt printers, shared by the SDK's encoder and the
        // printer emulator's decoder without either depending on the other.
        .target(name: "PrinterCodePages"),
        // A receipt printer in software: ESC/POS decoder, status answers, pages.
        .target(name: "PrinterSimulator", dependencies: ["PrinterCodePages"]),
        // The HTTP contract between SDK and gateway, one source for both sides.
        // Crypto: receivers verify webhook signatures (HMAC-SHA256) with this target alone.
        .target(
            name: "GatewayAPI",
            dependencies: ["MPOSCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Adyen-dialect nexo Terminal API messages (Codable) and their local encryption.
        .target(
            name: "TerminalAPI",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The sandbox payment gateway: HTTP server, SQLite database, issuer simulation.
        .target(
            name: "SandboxGateway",
            dependencies: [
                "GatewayAPI", "EMV", "MPOSCore", "CardCrypto", "SandboxCards",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                // Graceful shutdown: stop accepting, finish the requests in flight.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // The bound port of the listening channel (port 0 picks a free one).
                .product(name: "NIOCore", package: "swift-nio"),
                // SHA-256 of tokens and bodies; PBKDF2 for passwords.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Blocking waits on PostgreSQL futures from the backend's own threads.
                .product(name: "NIOPosix", package: "swift-nio"),
                // Webhook POSTs: a shutdown cancels them, which Linux's URLSession can crash on.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The SDK an app imports: session, payment engine, journal, receipts. No server
        // framework and no simulator reach an app through it.
        .target(
            name: "MPOSKit",
            dependencies: [
                "MPOSCore", "EMV", "ReaderLink", "GatewayAPI", "TerminalAPI", "PrinterCodePages",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // MPOSKit's gateway transport over AsyncHTTPClient (HTTP and HTTPS, keep-alive), for apps
        // on Linux; apart from MPOSKit so that an iOS app, which keeps URLSession, links no NIO.
        .target(
            name: "MPOSKitNIO",
            dependencies: [
                "MPOSKit", "GatewayAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Test support for apps and for our own tests: a manual clock for timeouts.
        .target(name: "MPOSTestSupport"),
        // The command-line tool.
        .executableTarget(
            name: "mpos",
            dependencies: [
                "MPOSKit", "MPOSKitNIO", "GatewayAPI", "MPOSCore", "EMV", "ReaderLink", "ReaderLinkTCP", "ReaderSimulator", "SandboxCards", "SandboxGateway",
                "PrinterSimulator", "TerminalAPI", "VirtualSmartCard", "PCSCReader",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // `mpos terminal emulate` serves POST /nexo like a terminal on the LAN.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Speed figures as JSON lines; not a test.
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "MPOSCore", "EMV", "GatewayAPI", "ReaderLink", "ReaderLinkTCP", "SandboxGateway", "SandboxCards", "ReaderSimulator",
                "MPOSKit", "MPOSKitNIO", "MPOSTestSupport", "TerminalAPI",
                // `pcsc.sale.latency`: the reader's kernel against a card through pcscd and vpcd.
                "PCSCReader", "VirtualSmartCard",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Swift concurrency on NIO's event loops for the reader-link figures.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks"
        ),
        .testTarget(name: "MPOSCoreTests", dependencies: ["MPOSCore", "MPOSTestSupport"]),
        .testTarget(
            name: "EMVTests",
            dependencies: ["EMV", "MPOSTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "CardCryptoTests", dependencies: ["CardCrypto", "EMV"]),
        .testTarget(
            name: "ReaderLinkTests",
            dependencies: [
                "ReaderLink", "EMV", "MPOSCore", "MPOSTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "ReaderLinkTCPTests",
            dependencies: [
                "ReaderLinkTCP", "ReaderLink",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "SandboxCardsTests", dependencies: ["SandboxCards", "CardCrypto", "EMV"]),
        .testTarget(
            name: "ReaderSimulatorTests",
            dependencies: [
                "ReaderSimulator", "SandboxCards", "ReaderLink", "ReaderLinkTCP", "CardCrypto", "EMV", "MPOSCore",
                "MPOSTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "VirtualSmartCardTests",
            dependencies: ["VirtualSmartCard", "ReaderSimulator", "ReaderLinkTCP", "SandboxCards", "MPOSTestSupport"]
        ),
        .testTarget(
            name: "PCSCReaderTests",
            dependencies: ["PCSCReader", "VirtualSmartCard", "ReaderSimulator", "SandboxCards", "MPOSTestSupport"]
        ),
        .testTarget(
            name: "TerminalAPITests",
            dependencies: ["TerminalAPI", "MPOSTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "PrinterSimulatorTests", dependencies: ["PrinterSimulator", "MPOSTestSupport"]),
        .testTarget(
            name: "SandboxGatewayTests",
            dependencies: [
                "SandboxGateway", "GatewayAPI", "CardCrypto", "EMV", "MPOSCore", "SandboxCards", "ReaderSimulator",
                "MPOSTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // Deadlines of the request timeouts' rule.
                .product(name: "NIOCore", package: "swift-nio"),
                // Verifies update signatures and hashes independently of the gateway's code.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "MPOSKitTests",
            dependencies: [
                "MPOSKit", "MPOSKitNIO", "MPOSCore", "EMV", "GatewayAPI", "ReaderLink", "ReaderLinkTCP", "ReaderSimulator",
                "TerminalAPI",
                "SandboxCards", "SandboxGateway", "MPOSTestSupport", "PrinterSimulator", "PrinterCodePages",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Expected outputs, read from the source tree by path.
            exclude: ["Fixtures"]
        ),
        // The README's Swift examples, compiled with only the imports they show (see
        // Scripts/check-readme-examples.py): a type MPOSKit does not export fails the build.
        .testTarget(name: "ReadmeExampleTests", dependencies: ["MPOSKit", "ReaderLinkTCP", "EMV"]),
        .testTarget(
            name: "mposTests",
            dependencies: [
                "mpos", "EMV", "MPOSTestSupport", "ReaderLinkTCP", "MPOSKit", "TerminalAPI",
                // To damage a sandbox database the way a disk or a hand edit might.
                .product(name: "GRDB", package: "GRDB.swift"),
                // The bank test's clients: cryptograms from the simulator's kernel, sent over
                // the SDK's NIO transport to gateway processes.
                "ReaderSimulator", "SandboxCards", "MPOSKitNIO",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
