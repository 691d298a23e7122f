import Foundation
import MenuScanKit

// libFuzzer harness over the OCR-free stages of one photo: decode (content
// sniffing, structure checks, EXIF orientation, header size limit) → quality
// gate → text height → ink map with ruling lines → unread-region analysis →
// a quarter turn and PNG encoding. `make fuzz` builds it with -sanitize=fuzzer (-D FUZZING: libFuzzer
// supplies main); a normal build makes a replayer that runs the same stages
// on files given as arguments (to reproduce a finding without libFuzzer).

enum FuzzImage {
    /// Small limit: a decompression bomb is refused from its header, and
    /// each execution stays fast.
    static let decoder = ImageDecoder(maxMegapixels: 4)

    static func run(_ bytes: [UInt8]) {
        guard let image = try? decoder.decode(bytes: bytes, name: "fuzz") else { return }
        let pix = image.pix
        _ = QualityGate().assess(pix)
        _ = QualityGate.textHeight(of: pix)
        let analyzer = TextRegionAnalyzer()
        let map = analyzer.inkMap(of: pix, findRules: true)
        let w = pix.width, h = pix.height
        let read = [Box(x: 0, y: 0, width: w / 2, height: h / 3)]
        let low = [Box(x: w / 3, y: h / 2, width: w / 2, height: h / 4)]
        _ = analyzer.analyze(map, hotspotBoxes: read, lowConfidenceBoxes: low)
        _ = pix.rotated(quarterTurns: 1)?.pngData()
    }
}

#if FUZZING
// SwiftPM renames an executable's `main`, so libFuzzer's own main is not
// used: this one hands the command line to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// libFuzzer's runtime references this symbol even when its driver is called directly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    FuzzImage.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@main
enum Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = runFuzzerDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
        exit(status)
    }
}
#else
@main
enum Replay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            FuzzImage.run(Array(data))
            print("ok \(path)")
        }
    }
}
#endif
