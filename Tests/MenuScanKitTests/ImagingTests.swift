import Foundation
import Testing
@testable import MenuScanKit

@Suite("Imaging: decode and EXIF orientation")
struct ImagingTests {
    /// The inverse of each EXIF transform: what a camera stores for an upright scene.
    static func stored(from upright: Bitmap, orientation: Int) -> Bitmap? {
        let inverse = [6: 8, 8: 6][orientation] ?? orientation
        return ImageDecoder.applyOrientation(inverse, to: upright)
    }

    @Test("every EXIF orientation 1–8 comes out upright", arguments: 1...8)
    func orientation(_ orientation: Int) throws {
        let cols = 3, rows = 2, block = 32
        let upright = try #require(TestSupport.blockImage(cols: cols, rows: rows, block: block))
        let stored = try #require(Self.stored(from: upright, orientation: orientation))
        let jpeg = try #require(stored.encoded(as: .jpeg))
        let tagged = TestSupport.jpegWithOrientation(jpeg, orientation: orientation, bigEndian: orientation % 2 == 0)
        #expect(ExifOrientation.read(from: tagged) == orientation)

        let decoded = try ImageDecoder().decode(bytes: tagged, name: "t.jpg")
        #expect(decoded.orientation == orientation)
        #expect(decoded.width == cols * block)
        #expect(decoded.height == rows * block)
        for r in 0..<rows {
            for c in 0..<cols {
                let px = try #require(decoded.pix.rgb(x: c * block + block / 2, y: r * block + block / 2))
                let expected = TestSupport.blockGray(r * cols + c)
                #expect(abs(Int(px.r) - expected) <= 6, "block (\(c),\(r)) orientation \(orientation)")
            }
        }
    }

    @Test("orientation is read from PNG eXIf, TIFF and WebP too; absent or invalid is nil")
    func orientationContainers() throws {
        let tiffLE: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]
        #expect(ExifOrientation.read(from: tiffLE) == 3)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += [0, 0, 0, UInt8(tiffLE.count)] + Array("eXIf".utf8) + tiffLE + [0, 0, 0, 0]
        #expect(ExifOrientation.read(from: png) == 3)
        var webp: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        webp += Array("EXIF".utf8) + [UInt8(tiffLE.count), 0, 0, 0] + tiffLE
        #expect(ExifOrientation.read(from: webp) == 3)
        var bad = tiffLE
        bad[18] = 9
        #expect(ExifOrientation.read(from: bad) == nil)
        #expect(ExifOrientation.read(from: Array("hello world, no image".utf8)) == nil)
        #expect(ExifOrientation.read(from: []) == nil)
    }

    @Test("the decoder chooses by content, not extension, for every format")
    func formats() throws {
        let pix = try #require(TestSupport.blockImage(cols: 2, rows: 2, block: 16))
        let formats: [(ImageFormat, String)] = [(.png, "png"), (.jpeg, "jpeg"), (.tiff, "tiff"),
                                                (.bmp, "bmp"), (.gif, "gif"), (.webp, "webp")]
        for (format, name) in formats {
            let bytes = try #require(pix.encoded(as: format), "encode \(name)")
            let decoded = try ImageDecoder().decode(bytes: bytes, name: "wrong-extension.txt")
            #expect(decoded.format == name)
            #expect(decoded.width == 32 && decoded.height == 32)
            #expect([8, 32].contains(decoded.pix.depth))
        }
    }

    @Test("alpha is removed by blending over white")
    func alpha() throws {
        // Black and fully transparent everywhere.
        let pix = try #require(Bitmap.blank(width: 8, height: 8, depth: 32, alpha: true))
        #expect(pix.samplesPerPixel == 4)
        let png = try #require(pix.encoded(as: .png))
        let decoded = try ImageDecoder().decode(bytes: png, name: "a.png")
        #expect(decoded.pix.samplesPerPixel != 4)
        let px = try #require(decoded.pix.rgb(x: 4, y: 4))
        #expect(px.r > 240 && px.g > 240 && px.b > 240)
    }

    func expectError(_ bytes: [UInt8], code: String, detailContains: String, decoder: ImageDecoder = ImageDecoder()) {
        do {
            _ = try decoder.decode(bytes: bytes, name: "x")
            Issue.record("expected \(code)")
        } catch {
            #expect(error.code == code)
            #expect(error.detail?.contains(detailContains) == true, "\(error.detail ?? "")")
        }
    }

    @Test("unreadable inputs are clear per-file errors")
    func unreadable() throws {
        expectError([], code: "MSG-INPUT-001", detailContains: "empty")
        expectError(Array("just some text, not an image at all".utf8), code: "MSG-INPUT-001", detailContains: "not a supported")
        expectError([0, 0, 0, 24] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 32), code: "MSG-INPUT-001", detailContains: "HEIF container not readable")
        expectError(Array("%PDF-1.7\n%âãÏÓ\n1 0 obj".utf8), code: "MSG-INPUT-001", detailContains: "PDF")
        let pix = try #require(TestSupport.blockImage(cols: 4, rows: 4, block: 16))
        let jpeg = try #require(pix.encoded(as: .jpeg))
        expectError(Array(jpeg[0..<(jpeg.count * 2 / 3)]), code: "MSG-INPUT-001", detailContains: "truncated")
        let png = try #require(pix.encoded(as: .png))
        expectError(Array(png[0..<(png.count / 2)]), code: "MSG-INPUT-001", detailContains: "truncated png")
        #expect(PNGStructure.isComplete(png))
    }

    @Test("a JPEG with data after its end marker is complete; one without the marker is not")
    func jpegCompleteness() throws {
        let pix = try #require(TestSupport.blockImage(cols: 4, rows: 4, block: 16))
        let jpeg = try #require(pix.encoded(as: .jpeg))
        #expect(JPEGStructure.isComplete(jpeg))
        #expect(JPEGStructure.isComplete(jpeg + [0x00, 0x01, 0x02]))
        #expect(!JPEGStructure.isComplete(Array(jpeg.dropLast(2))))
    }

    @Test("images over the pixel limit are refused from the header")
    func pixelLimit() throws {
        let pix = try #require(TestSupport.blockImage(cols: 25, rows: 20, block: 40))  // 1000×800 = 0.8 MP
        let png = try #require(pix.encoded(as: .png))
        expectError(png, code: "MSG-INPUT-002", detailContains: "0.8 megapixels", decoder: ImageDecoder(maxMegapixels: 0.5))
        #expect((try? ImageDecoder(maxMegapixels: 0.8).decode(bytes: png, name: "ok.png")) != nil)
    }

    @Test("a missing file is a file-access error, and hashes are SHA-256 of the bytes")
    func files() throws {
        do {
            _ = try ImageDecoder().decode(fileAt: URL(fileURLWithPath: "/nonexistent/menu.jpg"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "MSG-INPUT-003")
        }
        let url = TestSupport.samples.appendingPathComponent("blank.png")
        let decoded = try ImageDecoder().decode(fileAt: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(decoded.sha256 == String(output.prefix(64)))
    }
}
