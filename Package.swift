// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "portvakt",
    // iOS 17.4: the in-app browser's https callback (`ASWebAuthenticationSession.Callback`) starts there.
    platforms: [.macOS("14.4"), .iOS("17.4")],
    products: [
        .library(name: "Personnummer", targets: ["Personnummer"]),
        .library(name: "QRCode", targets: ["QRCode"]),
        .library(name: "PortvaktKit", targets: ["PortvaktKit"]),
        .library(name: "PortvaktProtocol", targets: ["PortvaktProtocol"]),
        .library(name: "PortvaktServer", targets: ["PortvaktServer"]),
        .library(name: "PortvaktSandbox", targets: ["PortvaktSandbox"]),
        .executable(name: "portvakt-server", targets: ["portvakt-server"]),
        .executable(name: "portvakt", targets: ["portvakt"]),
    ],
    // An app that depends on PortvaktKit alone turns the default trait off
    // (`.package(url: …, traits: [])`): the server's packages are then not resolved.
    traits: [
        .trait(name: "Server", description: "The server, the sandbox and the CLI, with their packages."),
        .default(enabledTraits: ["Server"]),
    ],
    // Exact versions: a release builds with what it was tested with (Package.resolved is not
    // committed here). Raise them deliberately, with the CHANGELOG.
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/vapor/sql-kit", exact: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", exact: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", exact: "1.7.3"),
        // OTLP over HTTP only: the default traits would build gRPC as well.
        .package(url: "https://github.com/swift-otel/swift-otel", exact: "1.6.0", traits: ["OTLPHTTP"]),
        // `swift package generate-documentation --target PortvaktKit` (the DocC catalog; scripts/docs-check.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // The national identity number: parse, validate, classify, mask. No dependencies.
        .target(name: "Personnummer"),

        // QR Code symbols (ISO/IEC 18004) for the animated BankID codes. No dependencies.
        .target(name: "QRCode"),

        // WebAuthn (passkeys): strict CBOR and COSE, and the registration and assertion checks of
        // WebAuthn Level 3. swift-crypto and this package's base64url; no WebAuthn package is in the mirror.
        .target(
            name: "WebAuthn",
            dependencies: ["PortvaktProtocol", .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto")]
        ),

        // Foundations the models, rules, storage and server share: key material, personnummer
        // protection, signing keys, the audit vocabulary, log redaction. No rules of their own.
        .target(
            name: "PortvaktCore",
            dependencies: [
                "Personnummer",
                "PortvaktProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
            ]
        ),

        // What the client SDK and the server both speak: PKCE, base64url, device keys and their
        // signed assertions. Foundation and swift-crypto only.
        .target(
            name: "PortvaktProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            resources: [.embedInCode("Resources")]
        ),

        // The client SDK the app links: the login journey as a state machine, tokens, device keys,
        // the offline queue and view models. Foundation and swift-crypto only (and this package's
        // own QR encoder, which has no dependencies).
        .target(
            name: "PortvaktKit",
            dependencies: ["PortvaktProtocol", "QRCode", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.embedInCode("Resources")]
        ),

        // What the rules speak in: users, sessions, member records, devices and the other rows, as
        // plain values. The domain decides with them; storage reads and writes them. No SQL, no HTTP.
        .target(
            name: "PortvaktModels",
            dependencies: ["PortvaktCore", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The rules: who may do what and how freshly authenticated (policies as data), the
        // administrators' member-sync review and account merge. No HTTP: each service gets a
        // store protocol of the few methods it uses, a clock and its keys.
        .target(
            name: "PortvaktDomain",
            dependencies: [
                "Personnummer", "PortvaktProtocol", "PortvaktCore", "PortvaktModels", "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Mustache", package: "swift-mustache", condition: .when(traits: ["Server"])),
            ],
            resources: [.embedInCode("Resources")]
        ),

        // One SQL store for SQLite and PostgreSQL, with versioned migrations.
        .target(
            name: "PortvaktStorage",
            dependencies: [
                "PortvaktCore",
                "PortvaktModels",
                "PortvaktDomain",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(name: "SQLiteKit", package: "sqlite-kit", condition: .when(traits: ["Server"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["Server"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"])),
            ]
        ),

        // HTTP helpers the broker and the sandbox share: strict form fields, JSON/HTML/OAuth responses,
        // and the one page renderer (Mustache templates with a view model per page).
        .target(
            name: "PortvaktHTTP",
            dependencies: [
                "PortvaktCore", "PortvaktProtocol",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Mustache", package: "swift-mustache", condition: .when(traits: ["Server"])),
            ]
        ),

        // Simulated BankID (OIDC and order API) and Vipps Login with test users and fault injection.
        .target(
            name: "PortvaktSandbox",
            dependencies: [
                "Personnummer",
                "PortvaktCore",
                "PortvaktHTTP",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            resources: [.embedInCode("Resources")]
        ),

        // The HTTP server: configuration, routes, middleware, start-up.
        .target(
            name: "PortvaktServer",
            dependencies: [
                "PortvaktCore",
                "PortvaktDomain",
                "PortvaktModels",
                "PortvaktStorage",
                "PortvaktSandbox",
                "PortvaktHTTP",
                "Personnummer",
                "QRCode",
                "WebAuthn",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"])),
            ],
            resources: [.embedInCode("Resources")]
        ),

        .executableTarget(
            name: "portvakt-server",
            dependencies: [
                "PortvaktServer",
                "PortvaktProtocol",
                "PortvaktModels",
                "PortvaktDomain",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["Server"])),
            ],
            plugins: ["VersionStamp"]
        ),

        // The command-line client on PortvaktKit with the Linux adapters; drives the end-to-end suite.
        .executableTarget(
            name: "portvakt",
            dependencies: [
                "PortvaktKit",
                "PortvaktProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            resources: [.embedInCode("Resources")],
            plugins: ["VersionStamp"]
        ),

        // `--version` names the git commit an executable is built from: the plugin writes it at
        // build time with this tool, which reads .git itself.
        .executableTarget(name: "portvakt-version-stamp"),
        .plugin(name: "VersionStamp", capability: .buildTool(), dependencies: ["portvakt-version-stamp"]),

        // Load generator: logs in through the sandbox and rotates refresh tokens against a live server.
        .executableTarget(
            name: "portvakt-load",
            dependencies: [
                "PortvaktCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Histogram", package: "hdrhistogram-swift", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/portvakt-load"
        ),

        // Prints throughput figures for BENCHMARKS.md; run in release mode.
        .executableTarget(
            name: "portvakt-benchmarks",
            dependencies: ["Personnummer", "PortvaktCore", "QRCode", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/portvakt-benchmarks"
        ),

        // PortvaktKit's own share of the BankID order (issue 47): the deep link opened after the order's
        // answer, and the QR code drawn, against a live portvakt-server; run in release mode.
        .executableTarget(
            name: "portvakt-kit-benchmark",
            dependencies: ["PortvaktKit", "PortvaktProtocol", "QRCode"],
            path: "Benchmarks/portvakt-kit-benchmark"
        ),

        // The member import (issue 45): 100,000 generated members through `members import`'s code,
        // on SQLite and (with TEST_POSTGRES_URL) PostgreSQL; run in release mode.
        .executableTarget(
            name: "portvakt-import-benchmark",
            dependencies: [
                "PortvaktServer", "PortvaktModels", "PortvaktStorage",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/portvakt-import-benchmark"
        ),

        // Throwaway databases and log capture, shared by the test targets.
        .target(
            name: "PortvaktTestSupport",
            dependencies: [
                "PortvaktCore",
                "PortvaktModels",
                "PortvaktStorage",
                "PortvaktProtocol",
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/PortvaktTestSupport"
        ),
        .testTarget(name: "PersonnummerTests", dependencies: ["Personnummer", "PortvaktTestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "PortvaktCore"]),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "PortvaktTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "PortvaktKitTests", dependencies: ["PortvaktKit", "PortvaktProtocol", "QRCode"]),
        .testTarget(
            name: "PortvaktCoreTests",
            dependencies: [
                "PortvaktCore", "Personnummer", "PortvaktTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "PortvaktDomainTests",
            dependencies: [
                "PortvaktDomain", "PortvaktModels", "PortvaktStorage", "PortvaktCore", "Personnummer", "PortvaktProtocol",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "PortvaktStorageTests",
            dependencies: [
                "PortvaktStorage", "PortvaktModels", "PortvaktDomain", "PortvaktProtocol", "PortvaktCore", "Personnummer", "PortvaktTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "PortvaktSandboxTests",
            dependencies: [
                "PortvaktSandbox", "PortvaktCore", "Personnummer",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "PortvaktServerTests",
            dependencies: [
                "PortvaktServer", "PortvaktDomain", "PortvaktModels", "PortvaktStorage", "PortvaktCore", "Personnummer", "PortvaktTestSupport", "PortvaktSandbox", "PortvaktKit", "portvakt",
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
