// swift-tools-version:6.0
import PackageDescription

// A port team's test package, as the DocC pages describe it: one dependency on passim, an adapter
// from the port to `AccessEnablerPort`, and `swift test` runs the conformance suite against it.
let package = Package(
    name: "SwiftPortTests",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "passim", path: "../.."),
    ],
    targets: [
        // Stands in for a team's own Swift port of the SDK: here, passim's reference AccessEnabler.
        .target(name: "StandInPort", dependencies: [.product(name: "Passim", package: "passim")]),
        .testTarget(name: "StandInPortTests", dependencies: [
            "StandInPort", .product(name: "PassimConformance", package: "passim"),
        ]),
        // The code of the DocC page "Testing your port", verbatim (scripts/check-doc-snippets.py).
        .testTarget(name: "FromTheDocsTests", dependencies: [.product(name: "PassimConformance", package: "passim")]),
    ],
    swiftLanguageModes: [.v6]
)
