/// What the hotspot stage adds to a photo's result.
public struct HotspotOutcome: Equatable, Sendable {
    public var hotspots: [Hotspot]
    public var unrecognizedRegions: [UnrecognizedRegion]
    public var coverage: TextCoverage
    /// The status after the partial rule (only ever `ok` → `partial`).
    public var status: PhotoStatus
    /// MSG-PARTIAL-001 when the photo became partial.
    public var message: MenuScanError?
}

/// The hotspot stage (SPEC R5, R6): hotspots on what was read, unrecognised
/// regions where text-like ink was not read, and the partial rule.
///
/// **Partial rule.** A photo the threshold rules passed (`ok`) becomes
/// `partial` when at least one unrecognised region exists and unread text
/// makes up at least `partialShare` (default 0.15) of its text area
/// (`TextCoverage.unrecognizedShare`): text area = union of the confidently
/// read lines' boxes (line-level hotspots, also when hotspots are per item)
/// + union of the unread text-line boxes inside the regions (the lines, not
/// the merged rectangles, so whitespace between lines does not count). The
/// result then carries MSG-PARTIAL-001. `failed`, `rejected` and `error`
/// photos keep their status; their hotspots and regions are still reported.
public struct HotspotStage: Sendable, Equatable {
    public var builder = HotspotBuilder()
    public var analyzer = TextRegionAnalyzer()
    public var partialShare = 0.15

    public init() {}

    /// `image` is the upright photo the OCR boxes refer to; `items` are menu
    /// items when menu analysis ran (item-level hotspots), else nil (line level).
    /// `inkMap`: the photo's ink map when already computed (else made here).
    public func run(page: OCRPage, image: Bitmap, status: PhotoStatus, items: [HotspotItem]? = nil,
                    inkMap: TextRegionAnalyzer.InkMap? = nil) -> HotspotOutcome {
        let hotspots = builder.build(page: page, items: items)
        let lowBoxes = builder.rejectedLines(page: page).map(\.box)
        // What was read is every confident line, whether or not it belongs to
        // an item (titles and section headers are read text too).
        let readBoxes = items == nil ? hotspots.map(\.box) : builder.build(page: page, items: nil).map(\.box)
        let analysis = analyzer.analyze(inkMap ?? analyzer.inkMap(of: image), hotspotBoxes: readBoxes, lowConfidenceBoxes: lowBoxes)
        return decide(hotspots: hotspots, regions: analysis.regions,
                      unreadTextArea: Box.unionArea(analysis.unreadLines), status: status, readBoxes: readBoxes)
    }

    /// The partial rule alone (pure; tested without images). `readBoxes`: the
    /// boxes of every confidently read line (default: the hotspots'). With
    /// item hotspots they differ: read text outside items (titles, notes,
    /// footers) is still read text, and item boxes change with the menu
    /// structure, which must not change the photo's status.
    public func decide(hotspots: [Hotspot], regions: [UnrecognizedRegion], unreadTextArea: Int,
                       status: PhotoStatus, readBoxes: [Box]? = nil) -> HotspotOutcome {
        let coverage = TextCoverage(recognizedArea: Box.unionArea(readBoxes ?? hotspots.map(\.box)),
                                    unrecognizedArea: regions.isEmpty ? 0 : unreadTextArea)
        var outcome = HotspotOutcome(hotspots: hotspots, unrecognizedRegions: regions, coverage: coverage,
                                     status: status, message: nil)
        if status == .ok, !regions.isEmpty, coverage.unrecognizedShare >= partialShare {
            outcome.status = .partial
            outcome.message = MenuScanError.partialResults.with(detail: String(
                format: "%d unrecognised region(s), %.0f%% of the text area", regions.count,
                coverage.unrecognizedShare * 100))
        }
        return outcome
    }
}
