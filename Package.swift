// swift-tools-version:6.0
import Foundation
import PackageDescription

/// PassimConformance's target folder is the package root (see the target); everything in it but its
/// sources and the suite is excluded, listed here so a new top-level file needs no edit.
let outsideConformance: [String] = {
    let root = Context.packageDirectory
    let top = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    let sources = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Sources")) ?? []
    return top.filter { !$0.hasPrefix(".") && $0 != "Sources" && $0 != "Scenarios" }
        + sources.filter { !$0.hasPrefix(".") && $0 != "PassimConformance" }.map { "Sources/" + $0 }
}()

// Module graph and import rules: docs/spec/ARCHITECTURE.md.
// Only PassXML touches libxml2; only Live (a later issue) touches libcurl.
let package = Package(
    name: "passim",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "passim", targets: ["passim"]),
        // The library products (docs: Sources/Passim/Passim.docc; versions: CHANGELOG.md).
        .library(name: "Passim", targets: ["Passim"]),
        .library(name: "PassimConformance", targets: ["PassimConformance"]),
        .library(name: "PassimMock", targets: ["PassimMock"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // `swift package generate-documentation` (make docc); it adds no code to the products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),

        .target(name: "PassModel"),
        .target(name: "PassXML", dependencies: ["PassModel", "CLibXML2"]),
        .target(
            name: "Entitlement",
            dependencies: ["PassModel", "PassXML", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "MockPass",
            dependencies: [
                "PassModel", "PassXML", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .target(name: "Simulation", dependencies: ["Entitlement", "MockPass", "PassXML", "PassModel"]),
        .target(
            name: "Live",
            dependencies: [
                "MockPass", "PassModel", "CCurl",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(name: "Lint", dependencies: ["MockPass", "PassModel"]),
        .target(name: "ScenarioSyntax", dependencies: ["PassModel"]),
        .target(name: "Port", dependencies: ["Simulation", "Entitlement", "Lint", "ScenarioSyntax", "PassModel"]),
        // Harness composes the runtimes (ARCHITECTURE.md); Scenario runs steps on what it composes.
        .target(name: "Harness", dependencies: ["Simulation", "Live", "Port", "Entitlement", "MockPass", "PassModel"]),
        .target(
            name: "Scenario",
            dependencies: [
                "ScenarioSyntax", "Harness", "Lint", "Simulation", "Entitlement", "MockPass", "PassXML", "PassModel",
            ]),
        .target(
            name: "Fuzz",
            dependencies: [
                "Scenario", "Harness", "ScenarioSyntax", "Simulation", "Entitlement", "MockPass", "PassModel", "Port",
            ]),
        // libFuzzer targets (docs/FUZZING.md); a normal build makes corpus replayers of them.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzScenarioParser", dependencies: ["FuzzSupport", "ScenarioSyntax"]),
        .executableTarget(name: "FuzzPassXML", dependencies: ["FuzzSupport", "PassXML"]),
        .executableTarget(name: "FuzzMockRequest", dependencies: ["FuzzSupport", "MockPass", "PassModel"]),
        .target(
            name: "Passim",
            dependencies: [
                "Entitlement", "Harness", "Lint", "MockPass", "PassModel", "Port", "Scenario", "ScenarioSyntax",
                "Simulation",
            ]),
        // The suite ships as a resource. SwiftPM copies a symlinked folder as a dangling link, and a
        // resource must lie inside its target, so this target's folder is the package root with its
        // sources narrowed to Sources/PassimConformance: Scenarios/ is copied in whole.
        .target(
            name: "PassimConformance", dependencies: ["Passim", "Port", "Scenario"], path: ".",
            exclude: outsideConformance, sources: ["Sources/PassimConformance"], resources: [.copy("Scenarios")]),
        .target(name: "PassimMock", dependencies: ["Passim", "Live", "Scenario"]),
        .executableTarget(
            name: "passim",
            dependencies: [
                "Scenario", "Harness", "ScenarioSyntax", "Live", "Port", "Fuzz", "MockPass", "Lint", "Passim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "PassModelTests", dependencies: ["PassModel"]),
        .testTarget(name: "PassXMLTests", dependencies: ["PassXML", "PassModel"]),
        .testTarget(name: "EntitlementTests", dependencies: ["Entitlement", "PassXML", "PassModel"]),
        .testTarget(name: "MockPassTests", dependencies: ["MockPass", "PassXML", "PassModel"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "PassModel"]),
        .testTarget(name: "ScenarioSyntaxTests", dependencies: ["ScenarioSyntax", "PassModel"]),
        .testTarget(
            name: "LiveTests",
            dependencies: [
                "Live", "MockPass", "PassModel", "PassXML", "ScenarioSyntax",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        .testTarget(name: "PortTests", dependencies: ["Port", "Entitlement", "Lint", "ScenarioSyntax", "PassModel"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "Simulation", "Live", "MockPass", "PassModel"]),
        .testTarget(
            name: "ScenarioTests",
            dependencies: ["Scenario", "Harness", "ScenarioSyntax", "Port", "Live", "MockPass", "PassModel"]),
        .testTarget(name: "PassimTests", dependencies: ["Passim"]),
        .testTarget(name: "PassimConformanceTests", dependencies: ["PassimConformance", "Port", "ScenarioSyntax"]),
        .testTarget(name: "PassimMockTests", dependencies: ["PassimMock", "Live"]),
        .testTarget(name: "LintTests", dependencies: ["Lint", "MockPass", "PassModel"]),
        .testTarget(name: "FuzzTests", dependencies: ["Fuzz", "Scenario", "ScenarioSyntax", "PassModel", "Port"]),
    ],
    swiftLanguageModes: [.v6]
)
