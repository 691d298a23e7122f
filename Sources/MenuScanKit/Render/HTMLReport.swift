import Foundation

/// One photo as the report shows it.
public struct ReportPhoto: Sendable {
    /// The JSON's path relative to the output folder, without `.json`.
    public var name: String
    public var result: PhotoResult
    /// The upright photo, downscaled, as a `data:image/jpeg;base64,…` URI.
    public var image: String?
    /// A small copy for the gallery.
    public var thumbnail: String?
    /// Why there is no image (photo moved, changed since the scan, unreadable).
    public var imageNote: String?

    public init(name: String, result: PhotoResult, image: String? = nil, thumbnail: String? = nil, imageNote: String? = nil) {
        self.name = name
        self.result = result
        self.image = image
        self.thumbnail = thumbnail
        self.imageNote = imageNote
    }
}

/// The static report: one self-contained `index.html` (no network, no
/// external files, no script): a gallery of cards, each linking (CSS
/// `:target`) to a full view of the photo with an SVG overlay: hotspot
/// outlines whose tooltip holds the text, confidence and allergens, and grey
/// unrecognised regions. Photos are embedded as downscaled JPEG data URIs so
/// the file can be moved or mailed on its own; the SVG's viewBox is the
/// upright photo's size, so JSON boxes are used as they are.
public enum HTMLReport {
    /// Height of the bar above the photo in the full view (CSS pixels). The
    /// photo fills the rest of the window from its top-left corner, scaled to fit.
    public static let barHeight = 48
    /// Width of the items panel beside the photo in the full view (CSS pixels).
    public static let itemsWidth = 380
    /// Stroke width of hotspot outlines in screen pixels.
    public static let strokeWidth = 3

    /// The anchor of a photo's full view (`index.html#ANCHOR`).
    public static func anchor(for name: String) -> String {
        "p-" + String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }

    public static func render(_ photos: [ReportPhoto], title: String = "MenuScan report") -> String {
        var counts: [PhotoStatus: Int] = [:]
        for p in photos { counts[p.result.status, default: 0] += 1 }
        var anchors: [String: Int] = [:]
        let ids = photos.map { p -> String in
            let a = anchor(for: p.name)
            let n = anchors[a, default: 0] + 1
            anchors[a] = n
            return n == 1 ? a : "\(a)-\(n)"
        }
        var html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>\(css)</style>
        </head><body>
        <header class="top"><h1>\(escape(title))</h1><p>\(photos.count) photos: \
        \(PhotoStatus.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: " · "))</p>
        <p class="legend"><span class="sw rec"></span>recognized <span class="sw low"></span>low confidence \
        <span class="sw unr"></span>unrecognized — click a photo to open it; hover a box for its text.</p></header>
        <main class="gallery">

        """
        for (p, id) in zip(photos, ids) { html += card(p, id: id) }
        html += "</main>\n"
        for (p, id) in zip(photos, ids) { html += viewer(p, id: id) }
        html += "</body></html>\n"
        return html
    }

    static func card(_ p: ReportPhoto, id: String) -> String {
        let r = p.result
        let thumb = p.thumbnail.map { "<img src=\"\($0)\" alt=\"\">" } ?? "<div class=\"noimg\">\(escape(p.imageNote ?? "no photo"))</div>"
        var meta = badge(r.status)
        if let c = r.ocr?.meanConfidence { meta += " confidence \(fmt(c)) (\(ConfidenceLevel(c).rawValue))" }
        if let h = r.hotspots { meta += " · \(h.count) hotspots" }
        if let u = r.unrecognizedRegions, !u.isEmpty { meta += " · \(u.count) unrecognized" }
        let messages = r.messages.map { "<li><b>\(escape($0.code))</b> \(escape($0.title)): \(escape($0.message))</li>" }.joined()
        let body = "\(thumb)<div class=\"name\">\(escape(r.source.path))</div><div class=\"meta\">\(meta)</div>"
            + (messages.isEmpty ? "" : "<ul class=\"msgs\">\(messages)</ul>")
        let openable = r.source.width != nil && r.source.height != nil
        return openable ? "<a class=\"card\" href=\"#\(id)\">\(body)</a>\n" : "<div class=\"card\">\(body)</div>\n"
    }

    static func viewer(_ p: ReportPhoto, id: String) -> String {
        let r = p.result
        guard let w = r.source.width, let h = r.source.height else { return "" }
        var bar = "<a class=\"close\" href=\"#\">← gallery</a> <b>\(escape(r.source.path))</b> \(badge(r.status))"
        if let c = r.ocr?.meanConfidence { bar += " confidence \(fmt(c))" }
        for m in r.messages { bar += " <span class=\"msg sev-\(m.severity.rawValue)\">\(escape(m.message))</span>" }
        if let note = p.imageNote { bar += " <i>\(escape(note))</i>" }
        var svg = "<svg class=\"photo\" viewBox=\"0 0 \(w) \(h)\" preserveAspectRatio=\"xMinYMin meet\" xmlns=\"http://www.w3.org/2000/svg\">"
        if let image = p.image {
            svg += "<image href=\"\(image)\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" preserveAspectRatio=\"none\"/>"
        } else {
            svg += "<rect class=\"blank\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\"/>"
        }
        for u in r.unrecognizedRegions ?? [] {
            svg += "<rect class=\"region\" \(rect(u.box))><title>Not recognized (\(u.reason.rawValue.replacingOccurrences(of: "_", with: " ")))</title></rect>"
        }
        for s in r.hotspots ?? [] {
            var tip = s.text + "\nconfidence " + (s.confidence.map(fmt) ?? "none") + " (\(s.level.rawValue))"
            if s.state == .lowConfidence { tip += ", low confidence: check it" }
            if let a = s.allergens { tip += "\nallergens: " + (a.isEmpty ? "none found" : a.joined(separator: ", ")) }
            if let d = s.dietary { tip += "\ndietary: \(d)" }
            if let safety = s.safety { tip += "\n\(safety)" }
            let color = OverlayStyle.color(of: s).hex
            svg += "<rect class=\"hs \(s.state.rawValue)\" data-id=\"\(s.id)\" stroke=\"\(color)\" \(rect(s.box))><title>\(escape(tip))</title></rect>"
        }
        svg += "</svg>"
        let panel = itemsPanel(r.menu)
        return "<section class=\"viewer\(panel.isEmpty ? "" : " with-items")\" id=\"\(id)\"><div class=\"bar\">\(bar)</div>\(svg)\(panel)</section>\n"
    }

    /// The photo's menu items beside its overlay: section, name, price,
    /// description, allergens, "may contain", safety and confidence; empty
    /// when the photo has no items.
    static func itemsPanel(_ menu: MenuAnalysis?) -> String {
        guard let menu, !menu.items.isEmpty else { return "" }
        var html = "<aside class=\"items\"><h2>\(menu.items.count) items · menu confidence \(fmt(menu.confidence)) (\(menu.confidenceLevel.rawValue))"
        if menu.requiresUserVerification { html += " · <b>check against the photo</b>" }
        html += "</h2>"
        var section: String?? = .none
        for item in menu.items {
            if section == .none || section! != item.section {
                section = .some(item.section)
                html += "<h3>\(escape(item.section ?? "—"))</h3>"
                for note in menu.notes(forSection: item.section) { html += "<p class=\"note\">\(escape(note))</p>" }
            }
            html += "<div class=\"item lvl-\(item.confidenceLevel.rawValue)\"><div><b>\(escape(item.name))</b>"
            if let p = item.price { html += " <span class=\"price\">\(escape(p))</span>" }
            if let safety = item.safety { html += " <span class=\"safety \(safety.rawValue)\">\(safety.rawValue)</span>" }
            html += "</div>"
            if !item.description.isEmpty { html += "<div class=\"desc\">\(escape(item.description))</div>" }
            var facts: [String] = []
            if !item.allergens.isEmpty { facts.append("contains: " + item.allergens.map(\.id.rawValue).joined(separator: ", ")) }
            if !item.mayContain.isEmpty { facts.append("may contain: " + item.mayContain.map(\.rawValue).joined(separator: ", ")) }
            facts.append(item.dietary.rawValue.replacingOccurrences(of: "_", with: " "))
            facts.append("confidence \(fmt(item.confidence))")
            html += "<div class=\"facts\">\(escape(facts.joined(separator: " · ")))</div></div>"
        }
        return html + "</aside>"
    }

    static func rect(_ b: Box) -> String {
        "x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.width)\" height=\"\(b.height)\""
    }

    static func badge(_ s: PhotoStatus) -> String { "<span class=\"badge \(s.rawValue)\">\(s.rawValue)</span>" }

    static func fmt(_ v: Double) -> String { String(format: "%.2f", v) }

    /// Escapes text for HTML element content and attribute values.
    public static func escape(_ s: String) -> String { Markup.escape(s) }

    static var css: String {
        """
        body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#f4f4f4;color:#222}
        .top{padding:12px 20px;background:#fff;border-bottom:1px solid #ddd}.top h1{margin:0 0 4px;font-size:20px}.top p{margin:2px 0}
        .sw{display:inline-block;width:14px;height:10px;margin:0 4px 0 10px;vertical-align:middle}
        .sw.rec{border:2px solid \(OverlayStyle.recognized.hex)}.sw.low{border:2px solid \(OverlayStyle.lowConfidence.hex)}.sw.unr{background:#808080;opacity:.6}
        .gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:14px;padding:16px 20px}
        .card{display:block;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;color:inherit;text-decoration:none;overflow:hidden}
        a.card:hover{border-color:\(OverlayStyle.recognized.hex)}
        .card img{display:block;width:100%;height:180px;object-fit:contain;background:#eee}
        .noimg{height:180px;display:flex;align-items:center;justify-content:center;background:#eee;color:#777;text-align:center}
        .name{font-weight:600;margin-top:6px;word-break:break-all}.meta{color:#555}.msgs{margin:4px 0 0;padding-left:18px;color:#444;font-size:12px;white-space:pre-line}
        .badge{display:inline-block;padding:0 6px;border-radius:3px;color:#fff;background:#777;font-size:12px}
        .badge.ok{background:#1a7f37}.badge.partial{background:#bf8700}.badge.failed,.badge.error{background:#cf222e}.badge.rejected{background:#8250df}
        .viewer{display:none;position:fixed;left:0;top:0;width:100vw;height:100vh;background:#1d1d1d;z-index:10}
        .viewer:target{display:block}
        .bar{position:absolute;left:0;top:0;width:100%;height:\(barHeight)px;box-sizing:border-box;padding:12px 14px;background:#fff;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .bar .close{margin-right:8px}.msg{margin-left:8px;color:#7a4e00}
        svg.photo{position:absolute;left:0;top:\(barHeight)px;width:100vw;height:calc(100vh - \(barHeight)px);display:block}
        .viewer.with-items svg.photo{width:calc(100vw - \(itemsWidth)px)}
        aside.items{position:absolute;right:0;top:\(barHeight)px;width:\(itemsWidth)px;height:calc(100vh - \(barHeight)px);box-sizing:border-box;overflow-y:auto;padding:8px 12px;background:#fff;font-size:13px}
        aside.items h2{font-size:14px;margin:4px 0 8px}aside.items h3{font-size:13px;margin:10px 0 4px;color:#555;text-transform:uppercase}
        .item{padding:4px 0;border-bottom:1px solid #eee}.item .desc{color:#444}.item .facts{color:#666;font-size:12px}.note{color:#7a4e00;margin:2px 0;font-style:italic}
        .item.lvl-low{background:#fff4e5}.price{color:#1a4d8f}.safety{padding:0 4px;border-radius:3px;color:#fff;font-size:11px}
        .safety.safe{background:#1a7f37}.safety.caution{background:#bf8700}.safety.unsafe{background:#cf222e}
        .blank{fill:#555}
        .region{fill:#808080;fill-opacity:\(OverlayStyle.unrecognizedFraction);stroke:none}
        .hs{fill:transparent;pointer-events:all;stroke-width:\(strokeWidth);vector-effect:non-scaling-stroke}
        .hs.low_confidence{stroke-dasharray:6 3}
        .hs:hover{fill:rgba(0,90,255,.18)}
        """
    }
}

/// Collects a scan's results for the report.
public enum ReportBuilder {
    public struct Options: Sendable {
        /// Relative `source.path`s are resolved against this folder.
        public var photosRoot: URL
        /// Long side of the embedded photo, and of the gallery thumbnail.
        public var imageLongSide: Int
        public var thumbnailLongSide: Int
        public var jpegQuality: Int

        public init(photosRoot: URL, imageLongSide: Int = 1600, thumbnailLongSide: Int = 360, jpegQuality: Int = 80) {
            self.photosRoot = photosRoot
            self.imageLongSide = imageLongSide
            self.thumbnailLongSide = thumbnailLongSide
            self.jpegQuality = jpegQuality
        }
    }

    /// Every NAME.json (PhotoResult) under `outputDirectory`, sorted by name;
    /// files that are not photo results (summary.json, bench files) are skipped.
    public static func results(in outputDirectory: URL) -> [(name: String, result: PhotoResult)] {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: outputDirectory.path) else { return [] }
        var found: [(String, PhotoResult)] = []
        let decoder = JSONDecoder()
        while let rel = walker.nextObject() as? String {
            guard rel.hasSuffix(".json"), !(rel as NSString).lastPathComponent.hasPrefix(".") else { continue }
            let url = outputDirectory.appendingPathComponent(rel)
            guard let data = try? Data(contentsOf: url),
                  let result = try? decoder.decode(PhotoResult.self, from: data) else { continue }
            found.append((String(rel.dropLast(5)), result))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The photo re-read, upright, checked against the scan's SHA-256, and
    /// embedded; or a note saying why not.
    public static func photo(name: String, result: PhotoResult, options: Options) -> ReportPhoto {
        var photo = ReportPhoto(name: name, result: result)
        guard result.source.width != nil else { return photo }
        let path = result.source.path
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : options.photosRoot.appendingPathComponent(path)
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder().decode(fileAt: url)
        } catch {
            photo.imageNote = "photo not found or unreadable (\(error.code))"
            return photo
        }
        if let sha = result.source.sha256, sha != decoded.sha256 {
            photo.imageNote = "photo changed since the scan; boxes would not match"
            return photo
        }
        photo.image = dataURI(decoded.pix, longSide: options.imageLongSide, quality: options.jpegQuality)
        photo.thumbnail = dataURI(decoded.pix, longSide: options.thumbnailLongSide, quality: options.jpegQuality)
        if photo.image == nil { photo.imageNote = "photo could not be encoded" }
        return photo
    }

    static func dataURI(_ pix: Bitmap, longSide: Int, quality: Int) -> String? {
        let f = min(1.0, Double(longSide) / Double(max(1, max(pix.width, pix.height))))
        guard let small = f < 1 ? pix.scaled(by: f) : pix, let jpeg = small.jpegData(quality: quality) else { return nil }
        return "data:image/jpeg;base64," + Data(jpeg).base64EncodedString()
    }
}
