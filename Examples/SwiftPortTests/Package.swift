// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MyPortTests",
    platforms: [.macOS(.v13)],
    dependencies: [
        // passim, by the path of a checkout (here: this repository, two folders up), or by the URL you
        // cloned it from: .package(url: "https://…/passim.git", branch: "main"). Either way it is "passim".
        .package(name: "passim", path: "../.."),
    ],
    targets: [
        // Your Swift port of the SDK. In passim's Examples/SwiftPortTests it is a stand-in over passim's
        // reference AccessEnabler; in your package, your own library target or a product you depend on.
        .target(name: "MyPort", dependencies: [.product(name: "Passim", package: "passim")]),
        .testTarget(name: "MyPortTests", dependencies: [
            "MyPort", .product(name: "PassimConformance", package: "passim"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
