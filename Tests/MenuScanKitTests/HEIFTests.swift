import CHeif
import Foundation
import Testing
@testable import MenuScanKit

/// Writes HEIC/AVIF files with libheif's own encoder (x265 / libaom, both
/// dependencies of Debian's libheif1), so the decoder is tested on real files.
enum HEIFFixture {
    struct Failure: Error { let what: String }

    /// `pixel(x, y)` gives r, g, b, a. `orientation` (EXIF numbering) is written
    /// as HEIF irot/imir; `exifOrientation` adds an EXIF block with that tag.
    static func encode(width: Int, height: Int, avif: Bool = false, alpha: Bool = false,
                       orientation: Int = 1, exifOrientation: Int? = nil,
                       pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) throws -> [UInt8] {
        guard let ctx = heif_context_alloc() else { throw Failure(what: "context") }
        defer { heif_context_free(ctx) }
        var image: OpaquePointer?
        var err = heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB,
                                    alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image)
        guard err.code == heif_error_Ok, let image else { throw Failure(what: "image") }
        defer { heif_image_release(image) }
        err = heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8)
        guard err.code == heif_error_Ok else { throw Failure(what: "plane") }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw Failure(what: "plane data") }
        let ch = alpha ? 4 : 3
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                let p = plane + y * Int(stride) + x * ch
                p[0] = r; p[1] = g; p[2] = b
                if alpha { p[3] = a }
            }
        }
        var encoder: OpaquePointer?
        err = heif_context_get_encoder_for_format(ctx, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder)
        guard err.code == heif_error_Ok, let encoder else { throw Failure(what: "no encoder") }
        defer { heif_encoder_release(encoder) }
        _ = heif_encoder_set_lossy_quality(encoder, 90)
        guard let options = heif_encoding_options_alloc() else { throw Failure(what: "options") }
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation)) ?? heif_orientation_normal
        var handle: OpaquePointer?
        err = heif_context_encode_image(ctx, image, encoder, options, &handle)
        guard err.code == heif_error_Ok, let handle else { throw Failure(what: "encode: \(HEIFDecoder.message(err))") }
        defer { heif_image_handle_release(handle) }
        if let exifOrientation {
            // 4-byte offset to the TIFF header (0), then a big-endian TIFF with one tag.
            let tiff: [UInt8] = [0, 0, 0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                                 0, UInt8(exifOrientation), 0, 0, 0, 0, 0, 0]
            err = tiff.withUnsafeBytes { heif_context_add_exif_metadata(ctx, handle, $0.baseAddress, Int32($0.count)) }
            guard err.code == heif_error_Ok else { throw Failure(what: "exif") }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("heif-\(UUID().uuidString).\(avif ? "avif" : "heic")").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        err = heif_context_write_to_file(ctx, path)
        guard err.code == heif_error_Ok, let data = FileManager.default.contents(atPath: path) else { throw Failure(what: "write") }
        return [UInt8](data)
    }

    /// Four quadrants: black top-left, red top-right, green bottom-left, white bottom-right.
    static func quadrants(_ w: Int, _ h: Int) -> (Int, Int) -> (UInt8, UInt8, UInt8, UInt8) {
        { x, y in
            switch (x < w / 2, y < h / 2) {
            case (true, true): (0, 0, 0, 255)
            case (false, true): (255, 0, 0, 255)
            case (true, false): (0, 200, 0, 255)
            case (false, false): (255, 255, 255, 255)
            }
        }
    }
}

@Suite("Imaging: HEIC/HEIF and AVIF through libheif")
struct HEIFTests {
    enum Colour { case black, red, green, white, other }
    static func colour(_ p: (r: UInt8, g: UInt8, b: UInt8)?) -> Colour {
        guard let p else { return .other }
        let (r, g, b) = (Int(p.r), Int(p.g), Int(p.b))
        if r < 50, g < 50, b < 50 { return .black }
        if r > 200, g < 70, b < 70 { return .red }
        if r < 70, g > 150, b < 70 { return .green }
        if r > 200, g > 200, b > 200 { return .white }
        return .other
    }

    /// The colours at the centres of the four quadrants: TL, TR, BL, BR.
    static func corners(_ d: DecodedImage) -> [Colour] {
        let w = d.width, h = d.height
        return [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
            .map { colour(d.pix.rgb(x: $0.0, y: $0.1)) }
    }

    @Test("a HEIC is found by its ftyp brand, whatever the name, and decodes to its pixels")
    func heic() throws {
        let bytes = try HEIFFixture.encode(width: 96, height: 64, pixel: HEIFFixture.quadrants(96, 64))
        #expect(HEIFDecoder.detect(bytes) == "heif")
        let d = try ImageDecoder().decode(bytes: bytes, name: "photo.jpg")
        #expect(d.format == "heif")
        #expect(d.width == 96 && d.height == 64)
        #expect(d.pix.depth == 32 && d.pix.samplesPerPixel == 3)
        #expect(Self.corners(d) == [.black, .red, .green, .white])
    }

    @Test("HEIF irot is applied once; an EXIF orientation saying the same is not applied again")
    func rotation() throws {
        // Stored landscape, displayed turned 90° clockwise: the top-left block
        // (black) ends up top-right, the bottom-left (green) top-left.
        for exif in [nil, 6] as [Int?] {
            let bytes = try HEIFFixture.encode(width: 96, height: 64, orientation: 6, exifOrientation: exif,
                                               pixel: HEIFFixture.quadrants(96, 64))
            let d = try ImageDecoder().decode(bytes: bytes, name: "turned.heic")
            #expect(d.width == 64 && d.height == 96, "exif \(String(describing: exif))")
            #expect(Self.corners(d) == [.green, .black, .white, .red], "exif \(String(describing: exif))")
            #expect(d.orientation == 1)
        }
    }

    @Test("HEIF imir (mirror) is applied")
    func mirror() throws {
        let bytes = try HEIFFixture.encode(width: 96, height: 64, orientation: 2, pixel: HEIFFixture.quadrants(96, 64))
        let d = try ImageDecoder().decode(bytes: bytes, name: "mirrored.heic")
        #expect(d.width == 96 && d.height == 64)
        #expect(Self.corners(d) == [.red, .black, .white, .green])
    }

    @Test("alpha is flattened on white")
    func alpha() throws {
        // Left half opaque black, right half fully transparent black.
        let bytes = try HEIFFixture.encode(width: 64, height: 64, alpha: true) { x, _ in (0, 0, 0, x < 32 ? 255 : 0) }
        let d = try ImageDecoder().decode(bytes: bytes, name: "alpha.heic")
        #expect(d.pix.samplesPerPixel == 3)
        #expect(Self.colour(d.pix.rgb(x: 12, y: 32)) == .black)
        #expect(Self.colour(d.pix.rgb(x: 52, y: 32)) == .white)
    }

    @Test("the megapixel limit is checked from the header")
    func pixelLimit() throws {
        let bytes = try HEIFFixture.encode(width: 1000, height: 600) { _, _ in (255, 255, 255, 255) }
        do {
            _ = try ImageDecoder(maxMegapixels: 0.5).decode(bytes: bytes, name: "big.heic")
            Issue.record("expected MSG-INPUT-002")
        } catch {
            #expect(error.code == "MSG-INPUT-002")
            #expect(error.detail?.contains("1000x600 is 0.6 megapixels") == true, "\(error.detail ?? "")")
        }
    }

    @Test("AVIF decodes when this libheif has an AV1 decoder")
    func avif() throws {
        guard HEIFDecoder.canDecode("avif") else {
            print("HEIFTests.avif: this libheif has no AV1 decoder, skipped")
            return
        }
        let bytes = try HEIFFixture.encode(width: 96, height: 64, avif: true, pixel: HEIFFixture.quadrants(96, 64))
        #expect(HEIFDecoder.detect(bytes) == "avif")
        let d = try ImageDecoder().decode(bytes: bytes, name: "photo.avif")
        #expect(d.format == "avif")
        #expect(Self.corners(d) == [.black, .red, .green, .white])
    }

    @Test("a truncated HEIC is a clear per-file error")
    func truncated() throws {
        let bytes = try HEIFFixture.encode(width: 96, height: 64, pixel: HEIFFixture.quadrants(96, 64))
        do {
            _ = try ImageDecoder().decode(bytes: Array(bytes.prefix(bytes.count / 2)), name: "cut.heic")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "MSG-INPUT-001")
            #expect(error.detail?.hasPrefix("cut.heic: HEIF") == true, "\(error.detail ?? "")")
        }
    }

    @Test("an auxiliary image shared by the primary and a second image is reduced to the primary")
    func sharedAuxiliary() throws {
        // meta(full) { pitm(v0, id 1), iref(v0) { auxl from 3 to [2, 1] } }
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let n = body.count + 8
            return [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] + Array(type.utf8) + body
        }
        let auxl = box("auxl", [0, 3, 0, 2, 0, 2, 0, 1])
        let meta = box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iref", [0, 0, 0, 0] + auxl))
        let file = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0]) + meta
        let fixed = HEIFBoxes.keepPrimaryReferences(file)
        #expect(fixed.count == file.count)
        // The reference now lists one target, the primary (id 1).
        let at = file.count - 8
        #expect(Array(fixed[at..<(at + 8)]) == [0, 3, 0, 1, 0, 1, 0, 1])
        #expect(HEIFBoxes.keepPrimaryReferences(fixed) == fixed)
        // Garbage stays as it was, without a trap.
        let junk: [UInt8] = [0, 0, 0, 9] + Array("meta".utf8) + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(HEIFBoxes.keepPrimaryReferences(junk) == junk)
    }

    @Test("the iPhone HEIC in ../shared/eval decodes upright (skipped when absent)")
    func realPhoto() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/eval/menus/test-data__menu-1.HEIC").standardized.path
        guard FileManager.default.fileExists(atPath: path) else {
            print("HEIFTests.realPhoto: \(path) not present, skipped")
            return
        }
        let d = try ImageDecoder().decode(fileAt: URL(fileURLWithPath: path))
        #expect(d.format == "heif")
        #expect(d.width == 3024 && d.height == 4032)
    }
}
