import Crypto
import Foundation

extension PhotoProcessor {
    /// One PDF page as the pipeline's input: the page rendered upright (its
    /// /Rotate applied) and, when its text layer is usable, that text as an
    /// OCR-like page in the same pixel frame. A page with a usable layer is
    /// rendered at `PDFTextLayer.textFrameDPI` (for hotspots and the overlay);
    /// one without at `PDFTextLayer.ocrDPI` for OCR.
    func loadPDFPage(_ url: URL, page number: Int, source: inout SourceInfo) throws(MenuScanError)
        -> (image: DecodedImage, textPage: OCRPage?) {
        let name = url.lastPathComponent
        let pdf: (path: String, document: PDFDocument, sha256: String, bytes: Int)
        if let open = openPDF, open.path == url.path {
            pdf = open
        } else {
            openPDF = nil
            let bytes = try ImageDecoder.readFile(url)
            guard PDFDocument.looksLikePDF(bytes) else {
                throw MenuScanError.unreadableImage.with(detail: "\(name): not a PDF any more (the file changed during the run)")
            }
            let document = try PDFDocument(bytes: bytes, name: name)
            let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            pdf = (url.path, document, digest, bytes.count)
            openPDF = pdf
        }
        source.page = number
        source.pages = pdf.document.pageCount
        guard pdf.document.pageCount <= settings.maxPDFPages else {
            throw MenuScanError.tooManyPages.with(detail: "\(name): \(pdf.document.pageCount) pages, limit \(settings.maxPDFPages)")
        }
        guard let page = pdf.document.page(number) else {
            throw MenuScanError.unreadableImage.with(detail: "\(name): page \(number) not found (\(pdf.document.pageCount) pages)")
        }
        let size = page.size
        guard size.width > 0, size.height > 0 else {
            throw MenuScanError.unreadableImage.with(detail: "\(name): page \(number) has no size")
        }
        var report: TextLayerReport?
        var layer: (text: String, boxes: [PDFRect])?
        let images = page.images()
        if let found = page.textLayer() {
            let judged = PDFTextLayer.judge(found.text, imageCoverage: images.coverage)
            report = judged
            if judged.used { layer = found }
        }
        var dpi = PDFTextLayer.textFrameDPI
        if layer == nil {
            dpi = PDFTextLayer.ocrDPI(widthPoints: size.width, heightPoints: size.height, maxMegapixels: settings.maxMegapixels)
            // A scanned page: no more dots than the scan has (upsampling only
            // blurs it, and the pipeline enlarges small text itself).
            if images.coverage >= PDFTextLayer.scannedPageCoverage, let native = images.largestDPI {
                dpi = max(PDFTextLayer.minimumScanDPI, min(dpi, native.rounded(.down)))
            }
        }
        let megapixels = size.width / 72 * dpi * size.height / 72 * dpi / 1_000_000
        guard megapixels <= settings.maxMegapixels else {
            throw MenuScanError.imageTooLarge.with(detail: String(
                format: "%@: page %d at %.0f dpi is %.1f megapixels, limit %.1f", name, number, dpi, megapixels, settings.maxMegapixels))
        }
        guard let pix = page.render(dpi: dpi) else {
            throw MenuScanError.processing.with(detail: "\(name): page \(number) could not be rendered")
        }
        source.dpi = dpi
        source.textLayer = report
        let textPage = layer.map { PDFTextLayer.page(text: $0.text, boxes: $0.boxes, dpi: dpi, width: pix.width, height: pix.height) }
        return (DecodedImage(pix: pix, format: "pdf", orientation: 1, sha256: pdf.sha256, byteCount: pdf.bytes), textPage)
    }

    /// A `.pdf` input that discovery did not split into pages: the reason as
    /// a per-file error (encrypted, damaged, too many pages, or no pages).
    func whyPDFNotExpanded(_ url: URL, source: inout SourceInfo) -> MenuScanError {
        let name = url.lastPathComponent
        do throws(MenuScanError) {
            let bytes = try ImageDecoder.readFile(url)
            guard PDFDocument.looksLikePDF(bytes) else {
                // Named .pdf but an image inside: the decoder says what it is.
                _ = try decoder.decode(bytes: bytes, name: name)
                return MenuScanError.unreadableImage.with(detail: "\(name): an image named .pdf; rename it to its format's extension")
            }
            let document = try PDFDocument(bytes: bytes, name: name)
            source.pages = document.pageCount
            if document.pageCount > settings.maxPDFPages {
                return MenuScanError.tooManyPages.with(detail: "\(name): \(document.pageCount) pages, limit \(settings.maxPDFPages)")
            }
            return MenuScanError.unreadableImage.with(detail: "\(name): the PDF has no pages")
        } catch {
            return error
        }
    }
}
