import CPoppler
import CTesseract
import Foundation

/// A PDF opened with poppler-glib. Not Sendable: one document stays on the
/// thread that opened it. The GObject reference is dropped exactly once.
public final class PDFDocument {
    private let raw: OpaquePointer
    public let pageCount: Int

    /// Opens a PDF from its bytes. Encrypted, damaged or non-PDF data throw
    /// per-file errors (R9); nothing is printed.
    public init(bytes: [UInt8], name: String) throws(MenuScanError) {
        PopplerQuiet.ensure()
        guard let gbytes = bytes.withUnsafeBytes({ g_bytes_new($0.baseAddress, gsize($0.count)) }) else {
            throw MenuScanError.processing.with(detail: "\(name): out of memory opening the PDF")
        }
        defer { g_bytes_unref(gbytes) }
        var error: UnsafeMutablePointer<GError>?
        let doc = poppler_document_new_from_bytes(gbytes, nil, &error)
        guard let doc else {
            let code = error?.pointee.code ?? -1
            let text = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
            if error != nil { g_error_free(error) }
            if code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                throw MenuScanError.protectedDocument.with(detail: "\(name): the PDF is encrypted and needs a password")
            }
            throw MenuScanError.unreadableImage.with(detail: "\(name): damaged or unreadable PDF (\(text))")
        }
        raw = doc
        pageCount = Int(poppler_document_get_n_pages(doc))
    }

    public convenience init(fileAt url: URL) throws(MenuScanError) {
        try self.init(bytes: try ImageDecoder.readFile(url), name: url.lastPathComponent)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(raw)) }

    /// Page `number` (1-based), or nil when out of range.
    public func page(_ number: Int) -> PDFPage? {
        guard number >= 1, number <= pageCount,
              let p = poppler_document_get_page(raw, Int32(number - 1)) else { return nil }
        return PDFPage(owning: p, document: self)
    }

    /// True when the bytes start like a PDF (within the first 1 KB, as readers allow).
    public static func looksLikePDF(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(1024)
        let marker = Array("%PDF-".utf8)
        guard head.count >= marker.count else { return false }
        for i in 0...(head.count - marker.count) where head[head.startIndex + i] == marker[0] {
            if head[(head.startIndex + i)..<(head.startIndex + i + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }

    /// The page count of a PDF file, or nil when it cannot be opened.
    public static func pageCount(fileAt path: String) -> Int? {
        guard let bytes = try? ImageDecoder.readFile(URL(fileURLWithPath: path)), looksLikePDF(bytes) else { return nil }
        return (try? PDFDocument(bytes: bytes, name: ""))?.pageCount
    }
}

/// One page. Keeps its document alive; the reference is dropped exactly once.
public final class PDFPage {
    private let raw: OpaquePointer
    private let document: PDFDocument

    init(owning raw: OpaquePointer, document: PDFDocument) {
        self.raw = raw
        self.document = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(raw)) }

    private var pointer: OpaquePointer { raw }

    /// Size in points (1/72 inch) as displayed: the page's /Rotate is applied.
    public var size: (width: Double, height: Double) {
        var w = 0.0, h = 0.0
        poppler_page_get_size(pointer, &w, &h)
        return (w, h)
    }

    /// The text layer in poppler's reading order, and one box (points, top-left
    /// origin of the displayed page) per Unicode scalar of that text; nil when
    /// poppler gives no layout or the counts disagree.
    public func textLayer() -> (text: String, boxes: [PDFRect])? {
        guard let cText = poppler_page_get_text(pointer) else { return nil }
        let text = String(cString: cText)
        g_free(cText)
        var rects: UnsafeMutablePointer<PopplerRectangle>?
        var n: guint = 0
        let ok = poppler_page_get_text_layout(pointer, &rects, &n)
        defer { if let rects { g_free(rects) } }
        guard ok != 0, let rects else { return text.isEmpty ? (text, []) : nil }
        let boxes = (0..<Int(n)).map { i in
            PDFRect(x1: rects[i].x1, y1: rects[i].y1, x2: rects[i].x2, y2: rects[i].y2)
        }
        guard boxes.count == text.unicodeScalars.count else { return nil }
        return (text, boxes)
    }

    /// The page's images: the share of the page they cover (0…1, overlaps
    /// counted twice, clamped) and the resolution (dots per inch on the page)
    /// of the largest one, nil when the page has none.
    public func images() -> (coverage: Double, largestDPI: Double?) {
        let (w, h) = size
        guard w > 0, h > 0, let list = poppler_page_get_image_mapping(pointer) else { return (0, nil) }
        defer { poppler_page_free_image_mapping(list) }
        var area = 0.0, largest = 0.0
        var largestID: Int32?, largestWidth = 0.0
        var node: UnsafeMutablePointer<GList>? = list
        while let n = node {
            if let data = n.pointee.data {
                let m = data.assumingMemoryBound(to: PopplerImageMapping.self).pointee
                let iw = max(0, min(m.area.x2, w) - max(m.area.x1, 0)), ih = max(0, min(m.area.y2, h) - max(m.area.y1, 0))
                area += iw * ih
                if iw * ih > largest { largest = iw * ih; largestID = m.image_id; largestWidth = abs(m.area.x2 - m.area.x1) }
            }
            node = n.pointee.next
        }
        var dpi: Double?
        if let largestID, largestWidth > 0, let surface = poppler_page_get_image(pointer, largestID) {
            let pixels = Double(cairo_image_surface_get_width(surface))
            cairo_surface_destroy(surface)
            if pixels > 0 { dpi = pixels / (largestWidth / 72) }
        }
        return (min(1, area / (w * h)), dpi)
    }

    /// Renders the displayed page on white at `dpi` as a 32 bpp RGB bitmap
    /// (nil when the size is unusable or cairo fails).
    public func render(dpi: Double) -> Bitmap? {
        let (w, h) = size
        let scale = dpi / 72
        let pw = Int((w * scale).rounded()), ph = Int((h * scale).rounded())
        guard pw > 0, ph > 0, pw <= 30_000, ph <= 30_000 else { return nil }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pw), Int32(ph)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        poppler_page_render_for_printing(pointer, cr)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard status == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface),
              let pix = Bitmap.blank(width: pw, height: ph, depth: 32) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard stride >= pw * 4 else { return nil }
        pix.withUnsafePointer { p in
            guard let dst = pixGetData(p) else { return }
            let wpl = Int(pixGetWpl(p))
            for y in 0..<ph {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                let out = dst + y * wpl
                // cairo RGB24: native 0x00RRGGBB; leptonica: 0xRRGGBB00.
                for x in 0..<pw { out[x] = row[x] << 8 }
            }
            _ = pixSetSpp(p, 3)
        }
        return pix
    }
}

/// A rectangle in PDF points, top-left origin.
public struct PDFRect: Sendable, Equatable {
    public var x1, y1, x2, y2: Double
}

/// poppler prints syntax warnings and errors to stderr itself; MenuScan reports
/// through its error type, and logs never hold document content (R12).
enum PopplerQuiet {
    private static let once: Void = {
        _ = g_log_set_handler("Poppler", GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue),
                              { _, _, _, _ in }, nil)
    }()

    static func ensure() { _ = once }
}
