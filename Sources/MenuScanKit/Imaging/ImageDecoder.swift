import CTesseract
import Crypto
import Foundation

/// A photo decoded, upright (EXIF applied) and without alpha: 8 bpp gray or
/// 32 bpp RGB. `pix` stays on the thread that decoded it.
public final class DecodedImage {
    public let pix: Bitmap
    /// Detected content format ("jpeg", "png", …), never the file extension.
    public let format: String
    /// EXIF/TIFF orientation that was applied (1 = none).
    public let orientation: Int
    /// SHA-256 of the file's bytes, lowercase hex.
    public let sha256: String
    public let byteCount: Int

    init(pix: Bitmap, format: String, orientation: Int, sha256: String, byteCount: Int) {
        self.pix = pix
        self.format = format
        self.orientation = orientation
        self.sha256 = sha256
        self.byteCount = byteCount
    }

    public var width: Int { pix.width }
    public var height: Int { pix.height }
}

/// Reads a file and decodes it, choosing the decoder by content: HEIC/HEIF and
/// AVIF (an `ftyp` box with a HEIF/AVIF brand) through libheif, everything
/// else through leptonica.
public struct ImageDecoder: Sendable {
    /// Images declaring more pixels than this are refused from the header alone.
    public var maxMegapixels: Double

    public init(maxMegapixels: Double = 100) {
        self.maxMegapixels = maxMegapixels
    }

    public func decode(fileAt url: URL) throws(MenuScanError) -> DecodedImage {
        try decode(bytes: try Self.readFile(url), name: url.lastPathComponent)
    }

    /// Decodes bytes already in memory; `name` is only used in error details.
    public func decode(bytes: [UInt8], name: String) throws(MenuScanError) -> DecodedImage {
        LeptonicaQuiet.ensure()
        guard !bytes.isEmpty else {
            throw MenuScanError.unreadableImage.with(detail: "\(name): empty file")
        }
        if let heif = HEIFDecoder.detect(bytes) {
            // libheif applies the HEIF transforms; EXIF is not applied again.
            let pix = try HEIFDecoder.decode(bytes, format: heif, name: name, maxMegapixels: maxMegapixels)
            let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            return DecodedImage(pix: pix, format: heif, orientation: 1, sha256: digest, byteCount: bytes.count)
        }
        let format = Self.detectFormat(bytes)
        guard let format else {
            throw MenuScanError.unreadableImage.with(detail: "\(name): \(Self.describeUnknown(bytes))")
        }
        if format == "jpeg", !JPEGStructure.isComplete(bytes) {
            throw MenuScanError.unreadableImage.with(detail: "\(name): truncated JPEG (no end-of-image marker)")
        }
        // Checked here so libpng never prints its own error for it.
        let pngChunks = format == "png" ? PNGStructure.chunks(bytes) : nil
        if format == "png", pngChunks == nil {
            throw MenuScanError.unreadableImage.with(detail: "\(name): truncated png (chunks end before IEND)")
        }
        // Header only: refuse huge images before allocating their pixels.
        var iff: l_int32 = 0, w: l_int32 = 0, h: l_int32 = 0, bps: l_int32 = 0, spp: l_int32 = 0, cmap: l_int32 = 0
        let headerOK = bytes.withUnsafeBufferPointer { buf in
            pixReadHeaderMem(buf.baseAddress, buf.count, &iff, &w, &h, &bps, &spp, &cmap) == 0
        }
        guard headerOK, w > 0, h > 0 else {
            throw MenuScanError.unreadableImage.with(detail: "\(name): unreadable \(format) header")
        }
        let megapixels = Double(w) * Double(h) / 1_000_000
        guard megapixels <= maxMegapixels else {
            throw MenuScanError.imageTooLarge.with(detail: String(
                format: "%@: %dx%d is %.1f megapixels, limit %.1f", name, Int(w), Int(h), megapixels, maxMegapixels))
        }
        // libpng prints warnings about ancillary chunks (colour profiles, text)
        // to stderr itself; OCR needs none of them, so leptonica gets the
        // essential chunks only.
        let pixels = pngChunks.map { PNGStructure.essentialChunks(bytes, $0) } ?? bytes
        let decoded = pixels.withUnsafeBufferPointer { buf in Bitmap(owning: pixReadMem(buf.baseAddress, buf.count)) }
        guard let decoded else {
            throw MenuScanError.unreadableImage.with(detail: "\(name): \(format) data could not be decoded")
        }
        guard let clean = Self.normalize(decoded) else {
            throw MenuScanError.processing.with(detail: "\(name): pixel format conversion failed (depth \(decoded.depth))")
        }
        let orientation = ExifOrientation.read(from: bytes) ?? 1
        guard let upright = Self.applyOrientation(orientation, to: clean) else {
            throw MenuScanError.processing.with(detail: "\(name): rotating for EXIF orientation \(orientation) failed")
        }
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return DecodedImage(pix: upright, format: format, orientation: orientation, sha256: digest, byteCount: bytes.count)
    }

    // MARK: - Steps

    /// Reads a whole file, mapping failures to our errors.
    static func readFile(_ url: URL) throws(MenuScanError) -> [UInt8] {
        let fd: Int32, size: Int
        switch RegularFile.open(url.path) {
        case .success(let opened): (fd, size) = opened
        case .failure(.system(let code)): throw fileError(code, url)
        case .failure(.notRegular(let kind)):
            throw MenuScanError.fileAccess.with(detail: "\(url.lastPathComponent): \(kind), not a regular file; only regular files are read")
        case .failure(.tooLarge(let bytes)):
            throw MenuScanError.fileAccess.with(detail: "\(url.lastPathComponent): \(bytes) bytes, over the \(RegularFile.maximumBytes)-byte read limit")
        }
        defer { close(fd) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw fileError(errno, url)
            }
            // A file growing while it is read stops at the limit.
            guard bytes.count + n <= RegularFile.maximumBytes else {
                throw MenuScanError.fileAccess.with(detail: "\(url.lastPathComponent): over the \(RegularFile.maximumBytes)-byte read limit")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    static func fileError(_ code: Int32, _ url: URL) -> MenuScanError {
        let reason = String(cString: strerror(code))
        return MenuScanError.fileAccess.with(detail: "\(url.lastPathComponent): \(reason) (errno \(code))")
    }

    /// Content sniffing: the decoder is chosen by the bytes, never the extension.
    static func detectFormat(_ bytes: [UInt8]) -> String? {
        var iff: l_int32 = 0
        let ok = bytes.withUnsafeBufferPointer { findFileFormatBuffer($0.baseAddress, &iff) == 0 }
        guard ok, bytes.count >= 12 else { return nil }
        switch Int(iff) {
        case IFF_JFIF_JPEG: return "jpeg"
        case IFF_PNG: return "png"
        case IFF_BMP: return "bmp"
        case IFF_GIF: return "gif"
        case IFF_WEBP: return "webp"
        case IFF_PNM: return "pnm"
        case IFF_JP2: return "jp2"
        case IFF_TIFF, IFF_TIFF_PACKBITS, IFF_TIFF_RLE,
             IFF_TIFF_G3, IFF_TIFF_G4, IFF_TIFF_LZW,
             IFF_TIFF_ZIP, IFF_TIFF_JPEG: return "tiff"
        default: return nil
        }
    }

    /// A human-readable reason for bytes that are no image leptonica reads.
    static func describeUnknown(_ b: [UInt8]) -> String {
        if b.count >= 12, b[4...7].elementsEqual(Array("ftyp".utf8)) {
            let brand = String(decoding: b[8...11], as: UTF8.self)
            return "ISO media file of brand '\(brand)' that holds no HEIF/AVIF image (a video?)"
        }
        if b.starts(with: Array("%PDF".utf8)) { return "PDF document not named .pdf (rename it NAME.pdf so each page is scanned)" }
        return "not a supported image format"
    }

    /// 8 bpp gray or 32 bpp RGB, no colormap, no alpha (blended over white).
    static func normalize(_ pix: Bitmap) -> Bitmap? {
        var current = pix
        let hasColormap = current.withUnsafePointer { pixGetColormap($0) != nil }
        if hasColormap {
            guard let p = current.derive({ pixRemoveColormap($0, l_int32(REMOVE_CMAP_BASED_ON_SRC)) }) else { return nil }
            current = p
        }
        switch current.depth {
        case 8:
            return current
        case 32:
            let spp = current.withUnsafePointer { pixGetSpp($0) }
            if spp == 4 {
                guard let p = current.derive({ pixRemoveAlpha($0) }) else { return nil }
                _ = p.withUnsafePointer { pixSetSpp($0, 3) }
                return p
            }
            return current
        case 16:
            return current.derive { pixConvert16To8($0, l_int32(L_MS_BYTE)) }
        case 24:
            return current.derive { pixConvert24To32($0) }
        default: // 1, 2, 4 bpp
            return current.derive { pixConvertTo8($0, 0) }
        }
    }

    /// Turns the stored image upright for EXIF orientation 1…8.
    static func applyOrientation(_ orientation: Int, to pix: Bitmap) -> Bitmap? {
        switch orientation {
        case 2: return pix.derive { pixFlipLR(nil, $0) }
        case 3: return pix.derive { pixRotateOrth($0, 2) }
        case 4: return pix.derive { pixFlipTB(nil, $0) }
        case 5: // transpose = rotate 90° clockwise, then mirror left-right
            return pix.derive { pixRotateOrth($0, 1) }?.derive { pixFlipLR(nil, $0) }
        case 6: return pix.derive { pixRotateOrth($0, 1) }
        case 7: // transverse = rotate 90° clockwise, then mirror top-bottom
            return pix.derive { pixRotateOrth($0, 1) }?.derive { pixFlipTB(nil, $0) }
        case 8: return pix.derive { pixRotateOrth($0, 3) }
        default: return pix
        }
    }
}

/// Checks that a JPEG's entropy-coded data reaches its end-of-image marker:
/// libjpeg pads a truncated file with grey and only warns, so leptonica would
/// hand back half a photo without saying so.
enum JPEGStructure {
    static func isComplete(_ b: [UInt8]) -> Bool {
        var i = 2
        let n = b.count
        while i + 1 < n {
            guard b[i] == 0xFF else { return false }
            let marker = b[i + 1]
            switch marker {
            case 0xFF: i += 1
            case 0xD9: return true
            case 0xD0...0xD7, 0x01: i += 2
            case 0xDA:
                // Skip the scan header, then entropy data up to the next real marker.
                guard i + 3 < n else { return false }
                i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
                while i + 1 < n {
                    if b[i] == 0xFF, b[i + 1] != 0x00, !(0xD0...0xD7).contains(b[i + 1]), b[i + 1] != 0xFF { break }
                    i += 1
                }
                if i + 1 >= n { return false }
            default:
                guard i + 3 < n else { return false }
                i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
            }
        }
        return false
    }
}

/// Walks a PNG's chunks: complete when IEND is reached inside the data.
enum PNGStructure {
    /// Every chunk (its type and the bytes of the whole chunk: length, type,
    /// data, CRC) up to IEND, or nil when the data end before IEND.
    static func chunks(_ b: [UInt8]) -> [(type: String, range: Range<Int>)]? {
        var out: [(type: String, range: Range<Int>)] = []
        var i = 8
        while i + 8 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let end = i + 12 + length
            guard end <= b.count else { return nil }
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append((type, i..<end))
            if type == "IEND" { return out }
            i = end
        }
        return nil
    }

    static func isComplete(_ b: [UInt8]) -> Bool { chunks(b) != nil }

    /// Chunks the pixels need: the critical ones, transparency, and pHYs (the
    /// resolution: Tesseract's layout analysis uses it, and without it a
    /// table page was read with 329 words instead of the CLI's 674).
    static let essential: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "pHYs"]

    /// The PNG with only its `essential` chunks (`chunks` as `chunks(b)` gave).
    /// Ancillary chunks such as iCCP or tEXt are where libpng's own warnings come from.
    static func essentialChunks(_ b: [UInt8], _ chunks: [(type: String, range: Range<Int>)]) -> [UInt8] {
        var out = Array(b.prefix(8))
        out.reserveCapacity(b.count)
        for chunk in chunks where essential.contains(chunk.type) { out += b[chunk.range] }
        return out
    }
}

/// Leptonica prints its own warnings to stderr; MenuScan reports through its
/// error type instead, so leptonica is silenced once per process.
enum LeptonicaQuiet {
    private static let once: Void = {
        _ = setMsgSeverity(l_int32(L_SEVERITY_NONE))
    }()

    static func ensure() { _ = once }
}
