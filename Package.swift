// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MenuScan",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "menuscan", targets: ["menuscan"]),
        .library(name: "MenuScanKit", targets: ["MenuScanKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The only target that touches C: Tesseract's C API and leptonica.
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev", "libpng-dev"])]
        ),
        // HEIC/HEIF and AVIF decoding (libheif), used only by the image decoder.
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // PDF menus (poppler-glib, rendering through cairo), used only by MenuScanKit/PDF.
        .systemLibrary(
            name: "CPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev", "libcairo2-dev"])]
        ),
        .target(
            name: "MenuScanKit",
            dependencies: [
                "CTesseract",
                "CHeif",
                "CPoppler",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "menuscan",
            dependencies: [
                "MenuScanKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libFuzzer harness (`make fuzz`); a plain build is a replayer of its inputs.
        .executableTarget(
            name: "MenuScanFuzz",
            dependencies: ["MenuScanKit"]
        ),
        .testTarget(
            name: "MenuScanKitTests",
            // CHeif only to encode the HEIC/AVIF files the decoder tests read.
            dependencies: ["MenuScanKit", "CHeif", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MenuScanKit"]
        ),
    ]
)
