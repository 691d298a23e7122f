import CHeif
import CTesseract

/// HEIC/HEIF and AVIF through libheif (Debian 12: 1.15). Only the primary image
/// is decoded. libheif applies the HEIF `irot`/`imir`/`clap` transforms itself
/// (decoding option `ignore_transformations` stays 0); the EXIF orientation a
/// phone also writes into a HEIC describes the same turn, so it is NOT applied
/// again (the HEIF specification makes the transform properties authoritative).
enum HEIFDecoder {
    /// Brands of the ISO base media file format that carry a HEIF image.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "mif2"]
    static let avifBrands: Set<String> = ["avif", "avis"]

    /// "heif" or "avif" when the bytes start with an `ftyp` box naming a
    /// HEIF/AVIF brand (major or compatible), nil otherwise.
    static func detect(_ b: [UInt8]) -> String? {
        guard b.count >= 16, b[4...7].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        let end = min(b.count, max(16, size))
        var brands = [String(decoding: b[8...11], as: UTF8.self)]
        var i = 16
        while i + 4 <= end {
            brands.append(String(decoding: b[i..<(i + 4)], as: UTF8.self))
            i += 4
        }
        if brands.contains(where: avifBrands.contains), !brands.contains(where: { $0.hasPrefix("hei") || $0.hasPrefix("hev") }) {
            return "avif"
        }
        if brands.contains(where: heifBrands.contains) { return "heif" }
        return nil
    }

    /// Decodes the primary image upright, alpha flattened on white, as 32 bpp
    /// RGB. `maxMegapixels` is checked from the header before any pixel is decoded.
    static func decode(_ bytes: [UInt8], format: String, name: String, maxMegapixels: Double) throws(MenuScanError) -> Bitmap {
        let patched = HEIFBoxes.keepPrimaryReferences(bytes)
        guard let ctx = HEIFContext() else {
            throw MenuScanError.processing.with(detail: "\(name): libheif context could not be created")
        }
        let readError = patched.withUnsafeBytes { buf in
            heif_context_read_from_memory_without_copy(ctx.raw, buf.baseAddress, buf.count, nil)
        }
        // `patched` is read again by libheif while decoding: keep it alive until the end.
        return try withExtendedLifetime(patched) { () throws(MenuScanError) -> Bitmap in
            guard readError.code == heif_error_Ok else {
                throw MenuScanError.unreadableImage.with(detail: "\(name): \(format.uppercased()) container not readable (\(message(readError)))")
            }
            guard let handle = HEIFHandle(primaryOf: ctx) else {
                throw MenuScanError.unreadableImage.with(detail: "\(name): \(format.uppercased()) file has no primary image")
            }
            // Width and height after the transforms; their product is what counts.
            let w = Int(heif_image_handle_get_width(handle.raw)), h = Int(heif_image_handle_get_height(handle.raw))
            guard w > 0, h > 0 else {
                throw MenuScanError.unreadableImage.with(detail: "\(name): unreadable \(format) header")
            }
            let megapixels = Double(w) * Double(h) / 1_000_000
            guard megapixels <= maxMegapixels else {
                throw MenuScanError.imageTooLarge.with(detail: String(
                    format: "%@: %dx%d is %.1f megapixels, limit %.1f", name, w, h, megapixels, maxMegapixels))
            }
            let alpha = heif_image_handle_has_alpha_channel(handle.raw) != 0
            var image: OpaquePointer?
            let err = heif_decode_image(handle.raw, &image, heif_colorspace_RGB,
                                        alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil)
            guard err.code == heif_error_Ok, let image else {
                if let image { heif_image_release(image) }
                let what = err.code == heif_error_Unsupported_feature || err.code == heif_error_Unsupported_filetype
                    ? "\(format.uppercased()) coding not supported by this libheif" : "\(format.uppercased()) data could not be decoded"
                throw MenuScanError.unreadableImage.with(detail: "\(name): \(what) (\(message(err)))")
            }
            defer { heif_image_release(image) }
            var stride: Int32 = 0
            let iw = Int(heif_image_get_width(image, heif_channel_interleaved))
            let ih = Int(heif_image_get_height(image, heif_channel_interleaved))
            guard iw > 0, ih > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), stride > 0,
                  let pix = Bitmap.blank(width: iw, height: ih, depth: 32) else {
                throw MenuScanError.processing.with(detail: "\(name): decoded \(format) has no pixel plane")
            }
            let channels = alpha ? 4 : 3
            guard Int(stride) >= iw * channels else {
                throw MenuScanError.processing.with(detail: "\(name): decoded \(format) plane is too narrow")
            }
            pix.withUnsafePointer { p in
                guard let data = pixGetData(p) else { return }
                let wpl = Int(pixGetWpl(p))
                for y in 0..<ih {
                    let src = plane + y * Int(stride)
                    let dst = data + y * wpl
                    for x in 0..<iw {
                        var r = UInt32(src[x * channels]), g = UInt32(src[x * channels + 1]), b = UInt32(src[x * channels + 2])
                        if alpha {
                            // Over white: c·a + 255·(1 − a), rounded.
                            let a = UInt32(src[x * channels + 3]), na = 255 - a
                            r = (r * a + 255 * na + 127) / 255
                            g = (g * a + 255 * na + 127) / 255
                            b = (b * a + 255 * na + 127) / 255
                        }
                        dst[x] = r << 24 | g << 16 | b << 8
                    }
                }
                _ = pixSetSpp(p, 3)
            }
            return pix
        }
    }

    static func message(_ e: heif_error) -> String {
        e.message.map { String(cString: $0) } ?? "code \(e.code.rawValue)"
    }

    /// True when this libheif can decode the format ("heif" = HEVC, "avif" = AV1).
    static func canDecode(_ format: String) -> Bool {
        heif_have_decoder_for_format(format == "avif" ? heif_compression_AV1 : heif_compression_HEVC) != 0
    }
}

/// Owns a `heif_context`; freed exactly once.
final class HEIFContext {
    let raw: OpaquePointer
    init?() {
        guard let c = heif_context_alloc() else { return nil }
        raw = c
    }
    deinit { heif_context_free(raw) }
}

/// Owns a `heif_image_handle`; keeps its context alive; released exactly once.
final class HEIFHandle {
    let raw: OpaquePointer
    private let context: HEIFContext
    init?(primaryOf context: HEIFContext) {
        var h: OpaquePointer?
        let err = heif_context_get_primary_image_handle(context.raw, &h)
        guard err.code == heif_error_Ok, let h else { return nil }
        raw = h
        self.context = context
    }
    deinit { heif_image_handle_release(raw) }
}

/// Byte-level repair of the HEIF item references libheif 1.15 refuses.
///
/// iPhones on iOS 18 store a gain map and a `tmap` tone-mapped item next to the
/// primary image, and link the auxiliary images (gain map, mattes) and the EXIF
/// to both with one `auxl`/`cdsc` reference each. libheif before 1.18 accepts an
/// auxiliary image or metadata item only for one image ("Too many auxiliary
/// image references", strukturag/libheif#1190, #1573). MenuScan decodes only the
/// primary image, so such a reference keeps only its target that is the primary
/// item (or its first target): the count is lowered in place and the box sizes
/// stay as they are, so no offset in the file moves.
enum HEIFBoxes {
    static func keepPrimaryReferences(_ input: [UInt8]) -> [UInt8] {
        var b = input
        guard let meta = boxes(in: b, 0..<b.count).first(where: { $0.type == "meta" }) else { return input }
        // meta is a full box: 4 bytes of version and flags before its children.
        guard meta.body.count >= 4 else { return input }
        let metaBody = (meta.body.lowerBound + 4)..<meta.body.upperBound
        let children = boxes(in: b, metaBody)
        var primary: Int?
        if let pitm = children.first(where: { $0.type == "pitm" }), pitm.body.count >= 6 {
            let v = b[pitm.body.lowerBound]
            primary = readInt(b, pitm.body.lowerBound + 4, v == 0 ? 2 : 4)
        }
        guard let iref = children.first(where: { $0.type == "iref" }), iref.body.count >= 4 else { return input }
        let idSize = b[iref.body.lowerBound] == 0 ? 2 : 4
        var changed = false
        for ref in boxes(in: b, (iref.body.lowerBound + 4)..<iref.body.upperBound) where ref.type == "auxl" || ref.type == "cdsc" {
            let countAt = ref.body.lowerBound + idSize
            guard countAt + 2 <= ref.body.upperBound, let count = readInt(b, countAt, 2), count > 1,
                  countAt + 2 + count * idSize <= ref.body.upperBound else { continue }
            let targets = (0..<count).compactMap { readInt(b, countAt + 2 + $0 * idSize, idSize) }
            let keep = targets.first(where: { $0 == primary }) ?? targets[0]
            b[countAt] = 0
            b[countAt + 1] = 1
            for k in 0..<idSize { b[countAt + 2 + k] = UInt8((keep >> (8 * (idSize - 1 - k))) & 0xff) }
            changed = true
        }
        return changed ? b : input
    }

    struct Box { let type: String; let body: Range<Int> }

    /// The boxes directly inside `range` (stops at the first malformed size).
    static func boxes(in b: [UInt8], _ range: Range<Int>) -> [Box] {
        var out: [Box] = []
        var i = range.lowerBound
        while i + 8 <= range.upperBound {
            guard var size = readInt(b, i, 4) else { break }
            var header = 8
            if size == 1 {
                guard i + 16 <= range.upperBound, let large = readInt(b, i + 8, 8) else { break }
                size = large
                header = 16
            } else if size == 0 {
                size = range.upperBound - i
            }
            guard size >= header, i + size <= range.upperBound else { break }
            out.append(Box(type: String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self), body: (i + header)..<(i + size)))
            i += size
        }
        return out
    }

    static func readInt(_ b: [UInt8], _ at: Int, _ n: Int) -> Int? {
        guard at >= 0, n <= 8, at + n <= b.count else { return nil }
        var v = 0
        for k in 0..<n {
            guard v <= Int.max >> 8 else { return nil }
            v = v << 8 | Int(b[at + k])
        }
        return v
    }
}
