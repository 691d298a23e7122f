import Foundation

/// Settings of a scan that change its results (hashable, so a run can tell
/// whether an earlier output was made with the same settings).
public struct ScanSettings: Sendable, Hashable, Codable {
    public var ocr: OCRSettings
    public var maxMegapixels: Double
    public var rules: ThresholdRulesSettings
    public var quality: QualityMode
    public var qualityThresholds: QualityThresholds
    public var preprocess: PreprocessSettings
    /// Second pass: read text lines the layout pass left unread (isolated
    /// prices, short lines) one by one.
    public var recoverLines: Bool = true
    /// Put the page into reading order, column by column, with the photo's
    /// ruling lines as walls (`ReadingOrder`).
    public var readingOrder: Bool = true
    /// Structure the menu into items and classify allergens and diet (R7, R8).
    public var menu: Bool = true
    /// Line recovery gives up on a photo after reading this many unread
    /// lines without keeping one (0: reads every candidate). 16: on the tune
    /// photos the first kept line came at most 10th, except one recovered
    /// word of noise at the 47th (docs/performance.md, round 5).
    public var recoveryGiveUp: Int = 16
    /// `--lang auto`: how a photo whose English read scores as another
    /// language is read again (docs/performance.md, round 7). nil is
    /// `.combined`, and leaves the settings' JSON (and the resume hash of
    /// earlier runs) as it was before the choice existed.
    public var languageReread: LanguageReread?
    /// The user's allergen profile: items become safe / caution / unsafe.
    public var allergenProfile: AllergenProfile?
    /// PDFs with more pages are refused (MSG-INPUT-005); see `InputDiscovery`.
    public var maxPDFPages: Int = InputDiscovery.defaultMaxPDFPages

    public init(ocr: OCRSettings = OCRSettings(), maxMegapixels: Double = 100,
                rules: ThresholdRulesSettings = ThresholdRulesSettings(),
                quality: QualityMode = .enforce, qualityThresholds: QualityThresholds = QualityThresholds(),
                preprocess: PreprocessSettings = PreprocessSettings()) {
        self.ocr = ocr
        self.maxMegapixels = maxMegapixels
        self.rules = rules
        self.quality = quality
        self.qualityThresholds = qualityThresholds
        self.preprocess = preprocess
    }
}

/// What the quality gate does (R2): `enforce` rejects defective photos before
/// OCR; `warn` is the seed's "Use Anyway" (OCR runs, defects stay as
/// warnings); `off` skips the measurement.
public enum QualityMode: String, Codable, Sendable, CaseIterable {
    case enforce, warn, off
}

/// Codable mirror of `ThresholdRules`.
public struct ThresholdRulesSettings: Sendable, Hashable, Codable {
    public var minimumCharacters = 10
    public var minimumConfidence = 0.3
    public init() {}
    var rules: ThresholdRules { ThresholdRules(minimumCharacters: minimumCharacters, minimumConfidence: minimumConfidence) }
}

/// Runs the per-photo stages: decode → OCR → threshold rules. One per worker
/// thread: it owns that worker's Tesseract engine, loaded once and reused.
public final class PhotoProcessor {
    public let settings: ScanSettings
    let decoder: ImageDecoder
    private let engine: TesseractEngine
    /// `--lang auto`: the detector, the languages installed next to eng, and
    /// the second-read engines, each loaded once on first use and kept.
    private let detector: LanguageDetector?
    private let installedLanguages: Set<String>
    private var rereadEngines: [String: TesseractEngine] = [:]
    /// Orientation detection: its own engine on osd.traineddata, loaded once.
    private let osd: TesseractEngine?
    /// Menu structure and allergen classification (lexicon loaded once).
    private let menuAnalyzer: MenuAnalyzer?
    /// Hotspots and unrecognised regions; its analyzer also finds the unread
    /// lines for line recovery, so both use one ink map made the same way.
    private let hotspotStage = HotspotStage()
    /// Compares what was read with what the photo holds (issue 17).
    private let readQualityStage = ReadQualityStage()
    private let engineName: String
    /// When set, `process` also draws the overlay PNG into `overlayPNG`.
    public var overlay: OverlayStyle?
    /// The last processed photo's overlay PNG (nil when off or not drawable).
    public private(set) var overlayPNG: [UInt8]?
    /// Told when `process` enters a stage and what is done once OCR and the
    /// threshold rules have run: a worker hands these to the supervisor, so a
    /// later stage that dies cannot take the OCR result with it.
    public var events: ((PipelineEvent) -> Void)?

    public enum PipelineEvent {
        case stage(String)
        /// The result so far: OCR, threshold rules (R4), quality and
        /// preprocessing; no menu, hotspots or partial rule (R5) yet.
        case checkpoint(PhotoResult)
    }
    /// The PDF whose pages are being processed (pages of one file come one
    /// after another, so it is opened and hashed once, not once per page).
    var openPDF: (path: String, document: PDFDocument, sha256: String, bytes: Int)?

    public init(settings: ScanSettings) throws(MenuScanError) {
        self.settings = settings
        decoder = ImageDecoder(maxMegapixels: settings.maxMegapixels)
        engine = try TesseractEngine(settings: settings.ocr)
        if settings.preprocess.rotate {
            var osdSettings = settings.ocr
            osdSettings.language = "osd"
            osd = try TesseractEngine(settings: osdSettings)
        } else {
            osd = nil
        }
        // The lexicon is loaded once and shared by the menu analyzer and the
        // language detector (loading it is about 2.3 G instructions).
        var lexicon: AllergenLexicon?
        if settings.menu {
            do {
                let loaded = try AllergenLexicon.loadDefault()
                lexicon = loaded
                menuAnalyzer = MenuAnalyzer(lexicon: loaded)
            } catch let error as MenuScanError {
                throw error
            } catch {
                throw MenuScanError.lexiconUnavailable.with(detail: "\(error)")
            }
        } else {
            menuAnalyzer = nil
        }
        engineName = "tesseract \(TesseractEngine.version)"
        if settings.ocr.isAuto {
            detector = LanguageDetector(lexicon: lexicon ?? (try? AllergenLexicon.loadDefault()))
            let dir = engine.tessdata
            installedLanguages = Set(LanguageDetector.languages.map(\.tesseract).filter {
                FileManager.default.fileExists(atPath: "\(dir)/\($0).traineddata")
            })
        } else {
            detector = nil
            installedLanguages = []
        }
    }

    /// The engine for a second read in `language` (e.g. "deu+eng"), loaded once.
    private func rereadEngine(_ language: String) throws(MenuScanError) -> TesseractEngine {
        if let e = rereadEngines[language] { return e }
        var s = settings.ocr
        s.language = language
        s.tessdataDirectory = engine.tessdata
        let e = try TesseractEngine(settings: s)
        rereadEngines[language] = e
        return e
    }

    /// Processes one photo. Never throws: every problem becomes the photo's
    /// status and message (R11).
    /// `page`: a PDF input's page (1-based, see `InputPhoto.page`); nil for photos.
    public func process(fileAt url: URL, displayPath: String, page pdfPage: Int? = nil) -> PhotoResult {
        var timings: [String: Double] = [:]
        var source = SourceInfo(path: displayPath)
        let clock = ContinuousClock()
        let start = clock.now
        func lap(_ stage: String, since: ContinuousClock.Instant) {
            timings[stage] = (clock.now - since).seconds
        }

        overlayPNG = nil
        events?(.stage("decode"))
        let decodeStart = clock.now
        let image: DecodedImage
        var layerPage: OCRPage?
        do throws(MenuScanError) {
            if let pdfPage {
                let loaded = try loadPDFPage(url, page: pdfPage, source: &source)
                image = loaded.image
                layerPage = loaded.textPage
            } else if url.pathExtension.lowercased() == "pdf" {
                throw whyPDFNotExpanded(url, source: &source)
            } else {
                image = try decoder.decode(fileAt: url)
            }
        } catch {
            lap("decode", since: decodeStart)
            timings["total"] = (clock.now - start).seconds
            return PhotoResult(source: source, status: .error, messages: [ResultMessage(error)], timings: timings)
        }
        lap("decode", since: decodeStart)
        source.sha256 = image.sha256
        source.bytes = image.byteCount
        source.format = image.format
        source.width = image.width
        source.height = image.height
        source.orientation = image.orientation
        if let layerPage {
            // The document's own text: no quality gate, preprocessing or OCR;
            // on a page without images every glyph is in the layer, so there
            // is no unread text to look for.
            emitCheckpoint(page: layerPage, engine: "pdf-text", source: source, messages: [], quality: nil,
                           record: nil, timings: timings)
            return finish(page: layerPage, upright: image.pix, engine: "pdf-text", source: source, messages: [],
                          quality: nil, record: nil, recoveredLines: nil, orderRecord: nil,
                          inkMap: nil, timings: timings, start: start,
                          lookForUnreadText: (source.textLayer?.imageCoverage ?? 1) > 0)
        }

        // One grayscale working copy of the photo (issue 16): quality, the
        // light-text finder, rescaling's text height and the ink analysis read
        // it (or its analysis copy) instead of each converting the photo again.
        let grayStart = clock.now
        var work = WorkingGray(photo: image.pix, needsAnalysis: settings.quality != .off
                                   || settings.preprocess.findsLightText || settings.preprocess.rescale,
                               measureComponents: settings.quality != .off)
        lap("gray", since: grayStart)
        if settings.preprocess.findsLightText {
            let lightStart = clock.now
            work.findLightText(measuringHeight: settings.preprocess.rescale)
            lap("light", since: lightStart)
        }
        // The OCR copy with its light-text regions inverted (`PhotoProcessor.readable`), made once for the
        // copy it was made from: the OCR-copy gate and line recovery read the same one.
        var lightCopy: (from: Bitmap, inverted: Bitmap?)?
        func lightReadable(_ prepared: (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord))
            -> (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord)? {
            if lightCopy?.from !== prepared.ocrCopy {
                lightCopy = (prepared.ocrCopy, PhotoProcessor.readable(prepared, lightText: work.lightText)?.ocrCopy)
            }
            return lightCopy?.inverted.map { (prepared.upright, $0, prepared.record) }
        }

        var quality: QualityReport?
        var messages: [ResultMessage] = []
        /// A quality rejection (R2): under `enforce` the photo's result; otherwise the message
        /// is kept as a low-severity warning and the photo goes on (nil).
        func rejection(_ q: QualityReport, detail: String, preprocessing: PreprocessRecord? = nil) -> PhotoResult? {
            let message = ResultMessage(MenuScanError.qualityTooLow.with(detail: detail))
            if settings.quality == .enforce {
                timings["total"] = (clock.now - start).seconds
                var result = PhotoResult(source: source, status: .rejected, messages: [message], timings: timings)
                result.quality = q
                result.preprocessing = preprocessing
                return result
            }
            var warning = message
            warning.severity = .low
            messages.append(warning)
            return nil
        }
        if settings.quality != .off {
            events?(.stage("quality"))
            let qualityStart = clock.now
            var thresholds = settings.qualityThresholds
            // A rendered PDF page: blank margins around a scan are paper, not a
            // flash's glare, so that one camera defect is not judged.
            if pdfPage != nil { thresholds.maxGlareShare = 1 }
            quality = QualityGate(thresholds: thresholds).assess(work.inkGray ?? image.pix, analysis: work.analysis,
                                                                 text: work.photoSizedComponents)
            lap("quality", since: qualityStart)
            if let q = quality, q.verdict == .rejected {
                let detail = q.defects.map { "\($0.kind.rawValue) \(Self.short($0.value)) (threshold \(Self.short($0.threshold)))" }
                    .joined(separator: ", ")
                if let rejected = rejection(q, detail: detail) { return rejected }
            }
        }

        // Text height: from the gate when it ran, else measured for rescaling.
        var textHeight = quality?.metrics.textHeight
        if textHeight == nil, settings.preprocess.rescale, quality == nil {
            let preStart = clock.now
            textHeight = QualityGate.textHeight(of: work.inkGray ?? image.pix, analysis: work.analysis)
            lap("measure", since: preStart)
        }
        // With light text, the gate (or the measure above) saw the text made dark; measured
        // as photographed, the components are the letters' counters and the gaps between
        // light strokes. The smaller of the two is the height rescaling goes by: light
        // strokes bleed into each other and read taller, and a real light-on-dark menu read
        // better enlarged by the smaller (tune: CER 0.232 → 0.218, items found 2 → 11 of 13;
        // docs/performance.md, "Round 28"). A generated dark page measured as photographed
        // asks to be shrunk fourfold; the smaller height never shrinks more than the gate's.
        if let h = work.photographedTextHeight, settings.preprocess.rescale {
            textHeight = Self.lightTextHeight(madeDark: textHeight, photographed: h)
        }
        events?(.stage("preprocess"))
        let preStart = clock.now
        var prepared = prepare(image.pix, textHeight: textHeight, lightText: work.lightText, gray: work.gray)
        lap("preprocess", since: preStart)
        // Issue 17: text size and ink contrast where OCR sees them, on the OCR copy.
        if settings.quality != .off {
            let copyStart = clock.now
            if prepared.record.scale == 1, prepared.record.invertedRegions == nil,
               let text = work.photoSizedComponents, let (analysis, _) = work.analysis {
                // The OCR copy is the photo itself: the gate measured its pixels
                // (light text inverted, as line recovery reads it).
                prepared.record.ocrCopy = QualityAnalysis.ocrCopy(analysis, scale: 1, text: text)
            } else {
                // with light text inverted, as line recovery reads it (`recoverLightText`)
                let copy = lightReadable(prepared)?.ocrCopy ?? prepared.ocrCopy
                prepared.record.ocrCopy = copy.centralWindow(maxSide: QualityAnalysis.ocrCopyWindow)?.grayImage().map {
                    QualityAnalysis.ocrCopy($0, scale: prepared.record.scale, copyPixels: copy.width * copy.height)
                }
            }
            lap("ocrCopyQuality", since: copyStart)
            // A rendered PDF page was rendered at a resolution chosen for OCR:
            // measured, not judged (thin type is the font, not the camera).
            let copyDefects = pdfPage != nil ? [] : prepared.record.ocrCopy.map { QualityGate(thresholds: settings.qualityThresholds).judgeOCRCopy($0) } ?? []
            // A defect the photo's own measurements already named is not named twice.
            let fresh = copyDefects.filter { d in !(quality?.defects.contains { $0.kind == d.kind } ?? false) }
            if !fresh.isEmpty, var q = quality {
                q.defects += fresh
                q.verdict = .rejected
                quality = q
                let detail = fresh.map { "\($0.kind.rawValue) \(Self.short($0.value)) on the OCR copy (threshold \(Self.short($0.threshold)))" }
                    .joined(separator: ", ")
                if let rejected = rejection(q, detail: detail, preprocessing: prepared.record) { return rejected }
            }
        }

        events?(.stage("ocr"))
        let ocrStart = clock.now
        var page: OCRPage
        var recoveredLines = 0
        var reader = engine
        var languageChoice: LanguageChoice?
        do {
            page = try engine.recognize(prepared.ocrCopy)
            // A shrink whose read shows words far below a readable size: the measured
            // text height was not the text's (a logo, a dark panel); read the photo unscaled.
            var scaleHeight = textHeight
            if Self.shrankTooFar(page, scale: prepared.record.scale, minimumWordHeight: settings.preprocess.minTextHeight) {
                var record = prepared.record
                let unscaled = prepare(image.pix, textHeight: nil, lightText: work.lightText, gray: work.gray)
                record.shrinkUndone = record.scale
                record.scale = 1
                record.invertedRegions = unscaled.record.invertedRegions
                prepared = (unscaled.upright, unscaled.ocrCopy, record)
                scaleHeight = nil
                page = try engine.recognize(prepared.ocrCopy)
            }
            // Orientation: OSD only when the first read is not confidently
            // upright; when OSD turns the photo, it is read again.
            if let osd {
                if Self.readsUpright(page, minimumConfidence: settings.preprocess.osdSkipConfidence) {
                    prepared.record.osdSkipped = true
                } else {
                    let osdStart = clock.now
                    let turned = orient(image.pix, textHeight: textHeight, osd: osd, record: &prepared.record)
                    lap("osd", since: osdStart)
                    if let turned {
                        work = WorkingGray(photo: turned, needsAnalysis: settings.preprocess.findsLightText)
                        if settings.preprocess.findsLightText { work.findLightText() }
                        prepared = prepare(turned, textHeight: scaleHeight, orientation: prepared.record, lightText: work.lightText,
                                           gray: work.gray)
                        page = try engine.recognize(prepared.ocrCopy)
                    }
                }
            }
            // --lang auto: read again when the English read scores as another language.
            if let detector {
                let scores = detector.score(page)
                var choice = LanguageChoice(chosen: "eng", first: scores, reread: false)
                if let language = detector.choose(scores, installed: installedLanguages) {
                    let langStart = clock.now
                    let combined = language + "+eng"
                    switch settings.languageReread ?? .combined {
                    case .combined:
                        reader = try rereadEngine(combined)
                        page = try reader.recognize(prepared.ocrCopy)
                    case .lines:
                        // No second layout pass: the English read's lines that
                        // may be in the other language are read again alone.
                        reader = try rereadEngine(combined)
                        let english = page
                        let bounds = Box(x: 0, y: 0, width: prepared.ocrCopy.width, height: prepared.ocrCopy.height)
                        let targets = LanguageMerge.rereadBoxes(english, bounds: bounds) {
                            !detector.prefersEnglish($0, over: $0, language: language)
                        }
                        var reads: [Int: [OCRWord]] = [:]
                        var next = 0
                        _ = reader.recognizeLines(prepared.ocrCopy, boxes: targets.map(\.box)) { line in
                            if next < targets.count, let line { reads[targets[next].line] = line.words }
                            next += 1
                            return true
                        }
                        page = LanguageMerge.replacing(english, reads)
                        choice.englishLines = english.lines.count - reads.values.filter { !$0.isEmpty }.count
                    case .merge:
                        // Only the second model reads again; the English read
                        // keeps the lines that hold more English than the other.
                        reader = try rereadEngine(language)
                        let merged = LanguageMerge.merge(second: try reader.recognize(prepared.ocrCopy), english: page) {
                            detector.prefersEnglish($0, over: $1, language: language)
                        }
                        page = merged.page
                        choice.englishLines = merged.englishLines
                    }
                    choice.chosen = combined
                    choice.reread = true
                    lap("language", since: langStart)
                }
                languageChoice = choice
            }
        } catch {
            lap("ocr", since: ocrStart)
            timings["total"] = (clock.now - start).seconds
            return PhotoResult(source: source, status: .error, messages: [ResultMessage(error)], timings: timings)
        }
        lap("ocr", since: ocrStart)
        if let t = timings["language"] { timings["ocr"] = max(0, (timings["ocr"] ?? 0) - t) }
        if let osdTime = timings["osd"] { timings["ocr"] = max(0, (timings["ocr"] ?? 0) - osdTime) }
        source.width = prepared.upright.width
        source.height = prepared.upright.height
        if prepared.record.scale != 1 {
            page = page.mapped(by: 1 / prepared.record.scale, within: Box(x: 0, y: 0, width: prepared.upright.width, height: prepared.upright.height))
        }

        func checkpoint(_ page: OCRPage) {
            emitCheckpoint(page: page, engine: engineName, source: source, messages: messages, quality: quality,
                           record: prepared.record, timings: timings)
        }
        checkpoint(page)

        // The photo's ink map: made once, used by line recovery, reading order
        // (its ruling lines) and hotspots.
        var inkMap: TextRegionAnalyzer.InkMap?
        if settings.recoverLines || settings.readingOrder {
            events?(.stage("ink"))
            let inkStart = clock.now
            // light text inverted, like the OCR copy, so it counts as ink
            inkMap = hotspotStage.analyzer.inkMap(of: work.inkGray ?? prepared.upright, findRules: settings.readingOrder)
            lap("ink", since: inkStart)
        }
        if settings.recoverLines {
            events?(.stage("recover"))
            let recoverStart = clock.now
            // Light text the page pass left unread is read from a copy with its regions inverted
            // (`recoverLightText`); everything else reads the same from it.
            var readable = prepared
            var panelLines = 0
            if let inverted = lightReadable(prepared) {
                readable = inverted
                prepared.record.lightTextRegions = work.lightText
                // Each dark panel read inverted as a page of its own (OCR/PanelMerge).
                if settings.preprocess.readsPanels {
                    let merged = PanelMerge.merge(page, panel: readPanels(readable, regions: work.lightText, reader: reader))
                    page = merged.page
                    panelLines = merged.lines
                }
            }
            let recovered = recoverLines(page: page, prepared: readable, inkMap: inkMap, reader: reader, lightText: work.lightText)
            if !recovered.isEmpty { page = page.inserting(recovered) }
            // Price columns Tesseract's layout dropped (Layout/PriceRecovery).
            let prices = recoverPrices(page: page, prepared: readable, inkMap: inkMap, reader: reader)
            page = prices.page
            recoveredLines = panelLines + recovered.count + prices.count
            lap("recover", since: recoverStart)
        }
        var orderRecord: ReadingOrder.Record?
        if settings.readingOrder {
            events?(.stage("order"))
            let orderStart = clock.now
            let ordered = ReadingOrder().apply(to: page, rules: inkMap?.rules ?? [])
            page = ordered.page
            orderRecord = ordered.record
            lap("order", since: orderStart)
        }

        // Recovered lines and reading order changed the page: hand it back again.
        if settings.recoverLines || settings.readingOrder { checkpoint(page) }
        var result = finish(page: page, upright: prepared.upright, engine: engineName, source: source, messages: messages,
                            quality: quality, record: prepared.record, recoveredLines: settings.recoverLines ? recoveredLines : nil,
                            orderRecord: orderRecord, inkMap: inkMap, gray: work.gray, textHeight: textHeight,
                            timings: timings, start: start)
        if let languageChoice {
            result.ocr?.language = languageChoice.chosen
            result.ocr?.languageDetection = languageChoice
        }
        return result
    }

    /// Hands `events` what is done so far (OCR or the text layer, threshold rules,
    /// quality, preprocessing): a later stage that dies cannot take it along.
    private func emitCheckpoint(page: OCRPage, engine: String, source: SourceInfo, messages: [ResultMessage],
                                quality: QualityReport?, record: PreprocessRecord?, timings: [String: Double]) {
        guard let events else { return }
        let verdict = settings.rules.rules.evaluate(page)
        var result = PhotoResult(source: source, status: verdict.status,
                                 messages: (verdict.message.map { [ResultMessage($0)] } ?? []) + messages,
                                 ocr: OCRResult(page: page, engine: engine, settings: settings.ocr),
                                 timings: timings)
        result.quality = quality
        result.preprocessing = record
        events(.checkpoint(result))
    }

    /// Threshold rules, menu analysis, hotspots and the result, on a page read
    /// by OCR or taken from a PDF's text layer.
    private func finish(page: OCRPage, upright: Bitmap, engine: String, source: SourceInfo, messages: [ResultMessage],
                        quality: QualityReport?, record: PreprocessRecord?, recoveredLines: Int?,
                        orderRecord: ReadingOrder.Record?, inkMap: TextRegionAnalyzer.InkMap?,
                        gray: Bitmap? = nil, textHeight: Double? = nil,
                        timings: [String: Double], start: ContinuousClock.Instant,
                        lookForUnreadText: Bool = true) -> PhotoResult {
        var timings = timings
        var inkMap = inkMap
        let clock = ContinuousClock()
        func lap(_ stage: String, since: ContinuousClock.Instant) {
            timings[stage] = (clock.now - since).seconds
        }
        events?(.stage("rules"))
        let rulesStart = clock.now
        let verdict = settings.rules.rules.evaluate(page)
        lap("rules", since: rulesStart)

        // Menu items, allergens and diet (R6–R8) on what was read.
        var menu: MenuAnalysis?
        if let menuAnalyzer, verdict.status != .failed {
            events?(.stage("classify"))
            let menuStart = clock.now
            menu = menuAnalyzer.analyze(page: page, profile: settings.allergenProfile)
            lap("classify", since: menuStart)
        }

        // Hotspots (item level when items were found), unrecognised regions and
        // the partial rule (R5, R6) need the upright image.
        events?(.stage("hotspots"))
        let hotspotStart = clock.now
        if inkMap == nil && lookForUnreadText { inkMap = hotspotStage.analyzer.inkMap(of: upright) }
        let items = menu?.items.compactMap { item -> HotspotItem? in
            guard let box = item.box else { return nil }
            return HotspotItem(box: box, text: [item.name, item.price].compactMap { $0 }.joined(separator: " "),
                               confidence: item.confidence, allergens: item.allergens.map(\.id.rawValue),
                               dietary: item.dietary.rawValue, safety: item.safety?.rawValue)
        }
        let itemSpots = items?.isEmpty == false ? items : nil
        let spots = lookForUnreadText
            ? hotspotStage.run(page: page, image: upright, status: verdict.status, items: itemSpots, inkMap: inkMap)
            : hotspotStage.decide(hotspots: hotspotStage.builder.build(page: page, items: itemSpots), regions: [],
                                  unreadTextArea: 0, status: verdict.status,
                                  readBoxes: hotspotStage.builder.build(page: page, items: nil).map(\.box))
        lap("hotspots", since: hotspotStart)

        // Issue 17: what was read against what the photo holds. Text cut off
        // at the edge or covered makes the photo partial; a read that is
        // mostly non-words or has a low readConfidence carries
        // lowConfidenceResults (first, so it is the photo's primary code).
        // A PDF's own text layer with nothing else on the page was not "read": skip it.
        let readStart = clock.now
        let assessed = lookForUnreadText
            ? readQualityStage.assess(page: page, image: gray ?? upright, inkMap: inkMap, coverage: spots.coverage, textHeight: textHeight)
            : nil
        if assessed != nil { lap("readQuality", since: readStart) }
        var status = spots.status
        var statusMessage = verdict.message ?? spots.message
        var regions = spots.unrecognizedRegions
        if let read = assessed {
            for r in read.regions where !regions.contains(where: { $0.box.iou(r.box) > 0.5 }) { regions.append(r) }
            if status == .ok, read.partial {
                status = .partial
                var why: [String] = []
                let f = read.quality.features
                if read.quality.findings.contains("cut_off") { why.append("text cut off at the photo's edge (\(f.cutOffLines) lines)") }
                if read.quality.findings.contains("covered") {
                    why.append(String(format: "part of the menu covered (%.0f%% of the text area)", f.coveredShare * 100))
                }
                statusMessage = MenuScanError.partialResults.with(detail: why.joined(separator: ", "))
            }
        }
        var statusMessages = statusMessage.map { [ResultMessage($0)] } ?? []
        var hotspots = spots.hotspots
        /// No item stays "safe" (R7), in the menu and on its hotspots.
        func withdrawSafe(_ reason: String) {
            guard menu?.items.contains(where: { $0.safety == .safe }) == true else { return }
            menu?.withdrawSafeVerdicts(reason: reason)
            hotspots = hotspots.map { h in
                var h = h
                if h.safety == Safety.safe.rawValue { h.safety = Safety.caution.rawValue }
                return h
            }
        }
        if let read = assessed, status == .ok || status == .partial, read.lowConfidence {
            let f = read.quality.features
            var why: [String] = []
            if let c = read.quality.readConfidence { why.append(String(format: "readConfidence %.2f", c)) }
            if let l = f.lexiconShare { why.append(String(format: "%.0f%% of %d tokens are known words", l * 100, f.lexiconTokens)) }
            if read.quality.findings.contains("small_text"), let h = textHeight {
                why.append(String(format: "text %.1f px tall (under %.1f)", h, readQualityStage.smallTextHeight))
            }
            let low = ResultMessage(MenuScanError.lowConfidenceResults.with(detail: why.joined(separator: ", ")))
            statusMessages.insert(low, at: status == .ok ? 0 : statusMessages.count)
            // R7: nothing is "safe" on a photo read this badly, however well its items' own words scored.
            withdrawSafe("low_read_confidence")
        }
        // R5 + R7: a partial photo holds text nobody read (a part of the page the OCR missed, cut off
        // or covered), and a statement there ("everything is fried in peanut oil", "all dinners
        // include the relish tray") would apply to every item: nothing on it is "safe".
        if status == .partial { withdrawSafe("unread_text") }

        timings["total"] = (clock.now - start).seconds
        var result = PhotoResult(source: source, status: status,
                                 messages: statusMessages + messages,
                                 ocr: OCRResult(page: page, engine: engine, settings: settings.ocr),
                                 timings: timings)
        result.ocr?.recoveredLines = recoveredLines
        result.ocr?.readingOrder = orderRecord
        result.quality = quality
        result.preprocessing = record
        result.menu = menu
        result.hotspots = hotspots
        result.unrecognizedRegions = regions
        result.textCoverage = spots.coverage
        result.readQuality = assessed?.quality
        if let overlay {
            events?(.stage("overlay"))
            overlayPNG = OverlayRenderer(style: overlay).render(image: upright, result: result)
        }
        return result
    }

    /// Mean word confidence a recovered line needs to be kept.
    static let recoveryMinimumConfidence = 0.6

    /// Lines with text-like ink that no confident word covers, read again one
    /// by one as single lines. Kept when Tesseract reads them with a mean
    /// confidence of at least 0.6, they hold two letters or digits, and they do
    /// not overlap what was already read.
    /// `lightText`: regions of light text (upright pixels); their lines and the
    /// rest of the page's give up apart (`continuesRecovery`), so lines of a
    /// dark textured panel read in vain do not end the reading of the page's
    /// own (a slide's source line, round 28).
    func recoverLines(page: OCRPage, prepared: (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord),
                      inkMap: TextRegionAnalyzer.InkMap?, reader: TesseractEngine? = nil,
                      lightText: [Box] = []) -> [OCRLine] {
        let engine = reader ?? engine
        let minimum = settings.rules.minimumConfidence
        let pageLines = page.lines
        let read = pageLines.filter { ($0.meanConfidence ?? 0) >= minimum }.map(\.box)
        let weak = pageLines.filter { ($0.meanConfidence ?? 0) < minimum }.map(\.box)
        let analysis = hotspotStage.analyzer.analyze(inkMap, hotspotBoxes: read, lowConfidenceBoxes: weak)
        guard !analysis.candidateLines.isEmpty else { return [] }
        // A line photographed at a slant (a page in perspective, where Tesseract's page pass read the
        // level lines and missed these) is read from a crop turned level; the others on the OCR copy.
        var level: [Box] = [], slanted: [(box: Box, band: TextRegionAnalyzer.Band)] = []
        for (k, box) in analysis.candidateLines.prefix(200).enumerated() {
            if k < analysis.candidateBands.count, Self.readsTurned(analysis.candidateBands[k], box: box) {
                slanted.append((box, analysis.candidateBands[k]))
            } else {
                level.append(box)
            }
        }
        let scale = prepared.record.scale
        let bounds = Box(x: 0, y: 0, width: prepared.ocrCopy.width, height: prepared.ocrCopy.height)
        func onCopy(_ box: Box) -> Box? {
            let pad = max(2, box.height / 4)
            return Box(left: box.x - pad, top: box.y - pad, right: box.maxX + pad, bottom: box.maxY + pad)
                .scaled(by: scale).intersection(bounds)
        }
        /// Whether a candidate's centre lies in a light-text region.
        func inLightText(_ box: Box) -> Bool {
            let cx = box.x + box.width / 2, cy = box.y + box.height / 2
            return lightText.contains { cx >= $0.x && cx < $0.maxX && cy >= $0.y && cy < $0.maxY }
        }
        // The page's lines, then the light-text regions' lines, each with its own give-up count.
        let groups = [level.filter { !inLightText($0) }.compactMap(onCopy), level.filter(inLightText).compactMap(onCopy)]
        let upright = Box(x: 0, y: 0, width: prepared.upright.width, height: prepared.upright.height)
        let readWords = pageLines.flatMap(\.words)
        /// The line (in upright pixels, or in OCR-copy pixels `onCopy`) when it is kept.
        func kept(_ read: OCRLine, onCopy: Bool = true) -> OCRLine? {
            let marked = OCRLine(box: read.box, words: read.words.map {
                OCRWord(text: $0.text, confidence: $0.confidence, box: $0.box, recovered: true)
            })
            guard let line = onCopy ? OCRPage(blocks: [OCRBlock(box: upright, lines: [marked])]).mapped(by: 1 / scale, within: upright).lines.first
                    : marked
            else { return nil }
            // Stricter than R4: single lines read out of context are where
            // texture turns into "words" (measured on food photos).
            guard (line.meanConfidence ?? 0) >= Self.recoveryMinimumConfidence,
                  line.text.unicodeScalars.filter({ CharacterSet.alphanumerics.contains($0) }).count >= 2,
                  !readWords.contains(where: { $0.box.iou(line.box) > 0.3 || ($0.box.intersection(line.box)?.area ?? 0) * 2 > line.box.area })
            else { return nil }
            return line
        }
        var recovered: [OCRLine] = []
        let giveUp = settings.recoveryGiveUp
        var tried = 0, keptCount = 0
        var goesOn = true
        for (k, boxes) in groups.enumerated() where !boxes.isEmpty {
            var triedHere = 0, keptHere = 0
            var goesOnHere = true
            _ = engine.recognizeLines(prepared.ocrCopy, boxes: boxes) { read in
                triedHere += 1
                if let read, let line = kept(read) { recovered.append(line); keptHere += 1 }
                goesOnHere = Self.continuesRecovery(tried: triedHere, kept: keptHere, giveUp: giveUp)
                return goesOnHere
            }
            // slanted lines go on from the page's count
            if k == 0 { tried = triedHere; keptCount = keptHere; goesOn = goesOnHere }
        }
        for (box, band) in slanted where goesOn {
            let pad = Double(band.thickness) / 4 + 2
            let grown = Box(left: box.x - Int(pad), top: box.y - Int(pad), right: box.maxX + Int(pad), bottom: box.maxY + Int(pad))
            tried += 1
            if let crop = LineCrop(prepared.upright, box: grown, scale: scale, border: Int((10 * scale).rounded()),
                                   slant: band.slant, through: band.through, bandHeight: Double(band.thickness) + 2 * pad),
               let read = engine.recognizeLines([crop]).first, let line = kept(read, onCopy: false) {
                recovered.append(line)
                keptCount += 1
            }
            goesOn = Self.continuesRecovery(tried: tried, kept: keptCount, giveUp: giveUp)
        }
        return recovered
    }

    /// Whether an unread candidate line is read from a crop turned level: it slants by at least
    /// `turnedSlant` (about 1.1°: across 12 character heights it rises a quarter of one) and is
    /// at least four times as long as its band is thick.
    static func readsTurned(_ band: TextRegionAnalyzer.Band, box: Box) -> Bool {
        abs(band.slant) >= turnedSlant && band.thickness > 0 && box.width >= 4 * band.thickness
    }

    static let turnedSlant = 0.02

    /// Whether line recovery reads the next candidate: always once a line
    /// was kept; otherwise until `giveUp` candidates were read in vain
    /// (0: never gives up). Unread ink where the first lines read give
    /// nothing is mostly texture, pictures or a script the model does not
    /// know (docs/performance.md, round 5).
    static func continuesRecovery(tried: Int, kept: Int, giveUp: Int) -> Bool {
        giveUp <= 0 || kept > 0 || tried < giveUp
    }

    /// Short unread ink on the rows of read lines (`PriceRecovery.candidates`),
    /// read one by one as single lines; kept when the reading is one price in
    /// a column with another price (`PriceRecovery.accepts`).
    func recoverPrices(page: OCRPage, prepared: (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord),
                       inkMap: TextRegionAnalyzer.InkMap?, reader: TesseractEngine? = nil) -> (page: OCRPage, count: Int) {
        guard let inkMap else { return (page, 0) }
        let recovery = PriceRecovery()
        let candidates = recovery.candidates(page: page, ink: inkMap)
        guard !candidates.isEmpty else { return (page, 0) }
        let engine = reader ?? engine
        let scale = prepared.record.scale
        let bounds = Box(x: 0, y: 0, width: prepared.ocrCopy.width, height: prepared.ocrCopy.height)
        let upright = Box(x: 0, y: 0, width: prepared.upright.width, height: prepared.upright.height)
        let pairs: [(photo: Box, copy: Box)] = candidates.compactMap { c in
            guard let b = c.scaled(by: scale).intersection(bounds), b.width > 0, b.height > 0 else { return nil }
            return (c, b)
        }
        // Each candidate read on the OCR copy (one answer per box, nil when nothing was read).
        var first: [OCRLine?] = []
        _ = engine.recognizeLines(prepared.ocrCopy, boxes: pairs.map(\.copy)) { first.append($0); return true }
        var read: [OCRLine] = []
        for (k, pair) in pairs.enumerated() {
            let onCopy = (k < first.count ? first[k] : nil).map { line in
                OCRPage(blocks: [OCRBlock(box: upright, lines: [line])]).mapped(by: 1 / scale, within: upright).lines
            } ?? []
            if let line = onCopy.first, let clean = PriceRecovery.cleaned(line), recovery.isConfidentPrice(clean) {
                read.append(line)
                continue
            }
            // Not a price there: a crop of its own (a tiny blurred "22" read as "2" on the page
            // copy reads right alone, contrast stretched and framed in white).
            let again = recovery.cropScales.lazy.compactMap { s -> OCRLine? in
                guard let crop = LineCrop(prepared.upright, box: pair.photo, scale: s, border: Int((10 * s).rounded()),
                                          minimumContrast: recovery.cropContrast),
                      let line = engine.recognizeLines([crop]).first,
                      let clean = PriceRecovery.cleaned(line),
                      recovery.isConfidentPrice(clean) else { return nil }
                return line
            }.first
            read += again.map { [$0] } ?? onCopy
        }
        return recovery.merge(read, into: page)
    }

    /// A first read that needs no orientation check: at least 20 characters,
    /// a mean word confidence of at least `minimumConfidence`, and text that
    /// lies the right way: no blocks Tesseract's layout reports as turned, and
    /// at most a tenth of the words of three or more characters taller than
    /// wide (Tesseract reads some sideways pages itself, with upright
    /// confidence but boxes on their side, and does not always report the
    /// block as turned). Upside-down and sideways receipts read at a mean
    /// confidence of at most 0.44; upright photos of ../shared/eval at least
    /// 0.47 (docs/preprocessing.md).
    static func readsUpright(_ page: OCRPage, minimumConfidence: Double) -> Bool {
        guard page.characterCount >= 20, (page.meanConfidence ?? 0) >= minimumConfidence, page.turnedCharacters == 0 else { return false }
        let long = page.words.filter { $0.text.count >= 3 }
        let tall = long.filter { $0.box.height > $0.box.width }.count
        return tall * 10 <= long.count
    }

    /// OSD on `photo`: the photo turned upright when OSD is confident it is
    /// rotated, else nil. Records OSD's answer either way.
    func orient(_ photo: Bitmap, textHeight: Double?, osd: TesseractEngine, record: inout PreprocessRecord) -> Bitmap? {
        // OSD reads a copy with text about 28 px tall (fast, and where it is
        // reliable), of at most `osdMaxMegapixels`.
        let osdScale = settings.preprocess.osdScale(textHeight: textHeight, width: photo.width, height: photo.height)
        guard let copy = photo.scaled(by: osdScale), let answer = osd.detectOrientation(copy) else { return nil }
        record.osdRotation = answer.rotateClockwise
        record.osdConfidence = (answer.confidence * 100).rounded() / 100
        guard answer.rotateClockwise != 0, answer.confidence >= settings.preprocess.rotateConfidence,
              let turned = photo.rotated(quarterTurns: answer.rotateClockwise / 90) else { return nil }
        record.rotated = answer.rotateClockwise
        return turned
    }

    /// Scale. `upright` is the photo in the frame every box is written in
    /// (after any turn); `ocrCopy` is what Tesseract reads. `orientation`:
    /// the record whose turn and OSD answer produced `upright`, if any.
    /// `lightText`: regions of light text on a dark background (upright
    /// pixels), inverted in the OCR copy.
    /// `gray`: `upright`'s grayscale copy, read instead of it with `readGray`.
    func prepare(_ upright: Bitmap, textHeight: Double?, orientation: PreprocessRecord? = nil,
                 lightText: [Box] = [], gray: Bitmap? = nil) -> (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord) {
        var record = orientation ?? PreprocessRecord(rotated: 0, osdRotation: nil, osdConfidence: nil, scale: 1,
                                                     textHeight: textHeight, thresholding: settings.ocr.thresholding.rawValue)
        record.scale = 1
        record.invertedRegions = nil
        var copy = upright
        if settings.preprocess.readGray, let gray, gray.width == upright.width, gray.height == upright.height { copy = gray }
        let factor = settings.preprocess.scaleFactor(textHeight: textHeight, width: upright.width, height: upright.height)
        if factor != 1, let scaled = copy.scaled(by: factor) {
            record.scale = (factor * 10_000).rounded() / 10_000
            copy = scaled
        }
        if settings.preprocess.invertsOCRCopy(regions: lightText, width: upright.width, height: upright.height),
           let inverted = copy.invertingRegions(lightText.map { $0.scaled(by: factor) }) {
            record.invertedRegions = lightText
            copy = inverted
        }
        return (upright, copy, record)
    }

    /// The lines of each light-text region (upright pixels) of `readable` (its OCR copy has them
    /// inverted), each region read as a page of its own; boxes in upright pixels. Regions smaller
    /// than `PreprocessSettings.minimumPanelSide` on either side (on the copy) are not read.
    func readPanels(_ readable: (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord), regions: [Box],
                    reader: TesseractEngine? = nil) -> [OCRLine] {
        let engine = reader ?? engine
        let scale = readable.record.scale
        let copy = Box(x: 0, y: 0, width: readable.ocrCopy.width, height: readable.ocrCopy.height)
        let upright = Box(x: 0, y: 0, width: readable.upright.width, height: readable.upright.height)
        let side = settings.preprocess.minimumPanelSide
        return regions.compactMap { $0.scaled(by: scale).intersection(copy) }
            .filter { $0.width >= side && $0.height >= side }
            .flatMap { rect -> [OCRLine] in
                guard let read = try? engine.recognize(readable.ocrCopy, rectangle: rect) else { return [] }
                return read.mapped(by: 1 / scale, within: upright).lines
            }
    }

    /// `prepared` with the light-text regions (upright pixels) inverted in its OCR copy, when
    /// there are any and the page pass read them as they are (`recoverLightText`); else nil.
    static func readable(_ prepared: (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord),
                         lightText: [Box]) -> (upright: Bitmap, ocrCopy: Bitmap, record: PreprocessRecord)? {
        guard prepared.record.invertedRegions == nil, !lightText.isEmpty,
              let inverted = prepared.ocrCopy.invertingRegions(lightText.map { $0.scaled(by: prepared.record.scale) })
        else { return nil }
        return (prepared.upright, inverted, prepared.record)
    }

    /// The text height rescaling goes by on a photo with light text: the smaller of the height
    /// measured with the light text made dark and the one measured as photographed (the letters'
    /// counters), but only while the latter is at least half the former. A counter is about half
    /// a letter's height; far smaller components are dots and texture (a generated dark menu
    /// measured 7 px as photographed and was enlarged fourfold, its prices then lost).
    static func lightTextHeight(madeDark: Double?, photographed: Double) -> Double {
        guard let madeDark else { return photographed }
        return photographed >= madeDark / 2 ? min(madeDark, photographed) : madeDark
    }

    static func short(_ v: Double) -> String { String(format: "%.3g", v) }

    /// Whether a read of a copy shrunk by `scale` (< 1) shows fewer than 5 words (with a
    /// letter or digit) or their median height below `minimumWordHeight` px: shrinking
    /// aims at text well above that size, so the height it was chosen from was not the
    /// text's (receipt sroie-060: 150 px measured, 22 px words, read at 6 px: 2 words).
    static func shrankTooFar(_ page: OCRPage, scale: Double, minimumWordHeight: Double) -> Bool {
        guard scale < 1 else { return false }
        let heights = page.words.filter { $0.text.contains { $0.isLetter || $0.isNumber } }.map(\.box.height).sorted()
        guard heights.count >= 5 else { return true }
        return Double(heights[heights.count / 2]) < minimumWordHeight
    }
}

/// The photo's one grayscale working copy, its analysis copy (long side at
/// most `QualityAnalysis.analysisLongSide`) and the light-text regions found
/// on it (issue 16).
struct WorkingGray {
    /// 8 bpp, full size (nil when leptonica could not convert the photo).
    let gray: Bitmap?
    /// The analysis copy and its scale, shared by the quality gate, the text
    /// height for rescaling and the light-text finder.
    private(set) var analysis: (GrayImage, Double)?
    /// The text height measured on the analysis copy as photographed, when `analysis` has
    /// light text inverted and `findLightText` was asked to measure it.
    private(set) var photographedTextHeight: Double?
    /// Light text on a dark background, in photo pixels.
    private(set) var lightText: [Box] = []
    /// `gray` with the light-text regions inverted: what the ink map reads.
    private(set) var inkGray: Bitmap?
    /// When the analysis copy is the photo's gray itself (long side at most
    /// `QualityAnalysis.analysisLongSide`, within the OCR copy's measured
    /// window): its text components with stroke widths, measured once for
    /// the quality gate and for the OCR copy when that is the photo unscaled
    /// (issue 16; most receipts).
    private(set) var photoSizedComponents: QualityAnalysis.TextComponents?

    init(photo: Bitmap, needsAnalysis: Bool, measureComponents: Bool = false) {
        gray = photo.grayscale()
        analysis = needsAnalysis ? gray.flatMap { QualityGate.analysisCopy(of: $0) } : nil
        inkGray = gray
        if measureComponents, let (copy, scale) = analysis, scale == 1, photo.depth == 8 || photo.depth == 32,
           copy.width == photo.width, copy.height == photo.height,
           max(copy.width, copy.height) <= QualityAnalysis.ocrCopyWindow {
            photoSizedComponents = QualityAnalysis.textComponents(copy, strokes: true)
        } else {
            photoSizedComponents = nil
        }
    }

    /// Finds the light text and, when there is any, makes it dark where the
    /// other stages look: the ink map's gray (`inkGray`) and the analysis
    /// copy the quality gate and the text height read (with its text
    /// components measured again), so a dark menu is judged as the page of
    /// dark text on light paper that OCR reads, not as a dark photo.
    /// With `measuringHeight`, the text height as photographed is measured before the copy
    /// is turned (`photographedTextHeight`, for rescaling).
    mutating func findLightText(_ finder: LightTextFinder = LightTextFinder(), measuringHeight: Bool = false) {
        guard let gray, let (copy, scale) = analysis, scale > 0 else { return }
        let bounds = Box(x: 0, y: 0, width: gray.width, height: gray.height)
        let found = finder.regions(in: copy)
        lightText = found.compactMap { $0.scaled(by: 1 / scale).intersection(bounds) }
        guard !lightText.isEmpty else { return }
        inkGray = gray.invertingRegions(lightText) ?? gray
        let turned = copy.invertingRegions(found)
        if measuringHeight { photographedTextHeight = QualityGate.textHeight(of: gray, analysis: (copy, scale)) }
        analysis = (turned, scale)
        if photoSizedComponents != nil { photoSizedComponents = QualityAnalysis.textComponents(turned, strokes: true) }
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    public var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) / 1e18
    }
}

