import Foundation
@testable import MenuScanKit

/// Paths and image factories shared by the unit tests.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = packageRoot.appendingPathComponent("samples")

    /// A fresh temporary folder, removed by the caller with `cleanup`.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("menuscan-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func cleanup(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// An 8 bpp image of `cols`×`rows` blocks of `block` px, each block a
    /// distinct grey (0, 40, 80, …) so any rotation or mirror is visible.
    static func blockImage(cols: Int, rows: Int, block: Int) -> Bitmap? {
        guard let pix = Bitmap.blank(width: cols * block, height: rows * block, depth: 8) else { return nil }
        for r in 0..<rows {
            for c in 0..<cols {
                let v = UInt8(blockGray(r * cols + c))
                for y in (r * block)..<((r + 1) * block) {
                    for x in (c * block)..<((c + 1) * block) { pix.setGray(x: x, y: y, v) }
                }
            }
        }
        return pix
    }

    static func blockGray(_ index: Int) -> Int { min(255, index * 40) }

    /// A JPEG with an APP1 Exif segment holding Orientation, inserted after SOI.
    static func jpegWithOrientation(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool = false) -> [UInt8] {
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xff)] : [UInt8(v & 0xff), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? [0, 0] + u16(v) : u16(v) + [0, 0] }
        tiff += u16(2)                                  // two entries
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("Foo\0".utf8)  // Make (ASCII, inline)
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xff)] + payload
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }
}

/// An OCR line with a given text height (typography): words 0.55 × height wide per
/// character, half a height apart (line-role and structure-confidence tests).
func tline(_ text: String, x: Int, y: Int, h: Int = 20, confidence: Double = 0.95) -> OCRLine {
    var words: [OCRWord] = []
    var cx = x
    for w in text.split(separator: " ") {
        let width = max(1, Int(Double(h) * 0.55 * Double(w.count)))
        words.append(OCRWord(text: String(w), confidence: confidence, box: Box(x: cx, y: y, width: width, height: h)))
        cx += width + h / 2
    }
    return OCRLine(box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
}
