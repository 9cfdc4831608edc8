// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Pindrop",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PindropCore", targets: ["PindropCore"]),
        .library(name: "PindropIndex", targets: ["PindropIndex"]),
        .library(name: "PindropImport", targets: ["PindropImport"]),
        .library(name: "PindropServer", targets: ["PindropServer"]),
        .library(name: "PindropTesting", targets: ["PindropTesting"]),
        .executable(name: "pindrop", targets: ["PindropCLI"]),
        .executable(name: "pindrop-bench", targets: ["PindropBench"]),
        .executable(name: "pindrop-fake-services", targets: ["PindropFakeServices"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Foundation only: value types, text normalisation, geo math, protocols, wire encoding. Its resource is
        // OpenCage's address templates (MIT) as scripts/make-address-formats.py writes them, with their licence.
        .target(name: "PindropCore",
                resources: [.copy("AddressFormatting/address-formats.json"), .copy("AddressFormatting/address-formats.LICENSE.txt")],
                swiftSettings: swiftSettings),
        // System zlib, for .gz GeoNames dumps.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate, for the zlib-compressed blobs of OSM PBF files: whole blobs of known size, inflated in less
        // than half zlib's time.
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", providers: [.apt(["libdeflate-dev"])]),
        // The compiler's prefetch hint, which Swift does not spell: the index asks for a query's rows ahead.
        .target(name: "CPrefetch"),
        .target(
            name: "PindropImport",
            dependencies: ["PindropCore", "CZlib", "CDeflate"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PindropIndex",
            dependencies: ["PindropCore", "CPrefetch", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift"),
                           .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Resources/category-phrases.tsv")],
            swiftSettings: swiftSettings
        ),
        // The shared store: PostgreSQL + PostGIS holds the places and the users' data; each server loads its
        // in-memory index (PindropIndex) from it and follows imports.
        .target(
            name: "PindropPostgres",
            dependencies: ["PindropCore", "PindropIndex", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Remote services (MusicBrainz, Nominatim, Photon, Google, Mapbox, Foursquare) behind Core's protocols.
        .target(
            name: "PindropProviders",
            dependencies: ["PindropCore", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PindropServer",
            dependencies: ["PindropCore", .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                           .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
                           .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            resources: [.copy("Public"), .copy("openapi.json")],
            swiftSettings: swiftSettings
        ),
        // Fakes and local fake servers that speak real wire formats (for tests and benchmarks).
        .target(name: "PindropTesting",
                dependencies: ["PindropCore", .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: swiftSettings),
        .executableTarget(
            name: "PindropCLI",
            dependencies: [
                "PindropCore", "PindropIndex", "PindropImport", "PindropServer", "PindropProviders", "PindropPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // `swift run -c release pindrop-bench`: latency percentiles against an FTS5 baseline in the same run.
        .executableTarget(
            name: "PindropBench",
            dependencies: ["PindropCore", "PindropIndex", "PindropImport", "PindropProviders", "PindropTesting", "PindropPostgres",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Benchmarks/PindropBench",
            swiftSettings: swiftSettings
        ),
        // `pindrop-fake-services`: local servers speaking real provider wire formats, for browser tests and benchmarks.
        .executableTarget(name: "PindropFakeServices", dependencies: ["PindropTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "PindropCoreTests", dependencies: ["PindropCore", "PindropTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "PindropImportTests", dependencies: ["PindropImport", "PindropTesting"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "PindropIndexTests", dependencies: ["PindropIndex", "PindropImport", "PindropTesting",
                                                             .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "PindropServerTests", dependencies: ["PindropServer", "PindropTesting", "PindropProviders",
                                                              .product(name: "HummingbirdTesting", package: "hummingbird")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "PindropPostgresTests", dependencies: ["PindropPostgres", "PindropIndex", "PindropImport", "PindropTesting"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "PindropProvidersTests", dependencies: ["PindropProviders", "PindropTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "PindropCLITests", dependencies: ["PindropCLI", "PindropCore", "PindropTesting"], swiftSettings: swiftSettings),
    ]
)
