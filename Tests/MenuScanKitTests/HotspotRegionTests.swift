import Testing
@testable import MenuScanKit

/// Synthetic pages: white paper with "characters" (dark rectangles 14 px
/// tall, 4 px apart, words 12 px apart) in lines, no OCR involved.
private enum Page {
    static func make(width: Int = 800, height: Int = 600, lines: [(x: Int, y: Int, words: Int)]) -> Bitmap? {
        guard let pix = Bitmap.filled(width: width, height: height, r: 250, g: 250, b: 245) else { return nil }
        for l in lines {
            var x = l.x
            for w in 0..<l.words {
                for c in 0..<(4 + w % 3) {
                    pix.fill(Box(x: x, y: l.y + (c % 2), width: 8, height: 14), r: 30, g: 30, b: 30)
                    x += 12
                }
                x += 12
            }
        }
        return pix
    }

    /// The box of a synthetic line (as OCR would report it).
    static func box(x: Int, y: Int, words: Int) -> Box {
        var width = 0
        for w in 0..<words { width += (4 + w % 3) * 12 + 12 }
        return Box(x: x, y: y, width: width - 16, height: 15)
    }
}

@Suite("Hotspots: unrecognised-region analysis on synthetic pages")
struct HotspotRegionTests {
    let lines: [(x: Int, y: Int, words: Int)] = [(100, 100, 4), (100, 130, 5), (100, 160, 3), (100, 300, 4), (100, 330, 5), (100, 360, 4)]

    @Test("text lines nobody read become one region per paragraph, reason no_words")
    func unreadParagraphs() throws {
        let page = try #require(Page.make(lines: lines))
        let regions = TextRegionAnalyzer().unrecognizedRegions(in: page, hotspotBoxes: [], lowConfidenceBoxes: [])
        #expect(regions.count == 2)
        #expect(regions.allSatisfy { $0.reason == .noWords })
        let top = try #require(regions.first)
        #expect(top.box.x <= 100 && top.box.y <= 101 && top.box.maxY >= 174 && top.box.maxY < 300)
    }

    @Test("lines covered by hotspots leave only the unread paragraph; read text is never swallowed")
    func readLinesExcluded() throws {
        let page = try #require(Page.make(lines: lines))
        let read = lines.prefix(3).map { Page.box(x: $0.x, y: $0.y, words: $0.words) }
        let analysis = TextRegionAnalyzer().analyze(page, hotspotBoxes: read, lowConfidenceBoxes: [])
        #expect(analysis.regions.count == 1)
        let region = try #require(analysis.regions.first)
        #expect(region.box.y >= 290 && region.box.y <= 301 && region.box.maxY >= 374)
        #expect(analysis.unreadLines.count == 3)
        let all = lines.map { Page.box(x: $0.x, y: $0.y, words: $0.words) }
        #expect(TextRegionAnalyzer().unrecognizedRegions(in: page, hotspotBoxes: all, lowConfidenceBoxes: []).isEmpty)
    }

    @Test("one ink map serves several analyses with different read boxes")
    func sharedInkMap() throws {
        let page = try #require(Page.make(lines: lines))
        let analyzer = TextRegionAnalyzer()
        let map = try #require(analyzer.inkMap(of: page))
        #expect(map.width == page.width && map.height == page.height && map.characters.count > 20)
        // The same map, first with nothing read, then with the first paragraph read.
        #expect(analyzer.analyze(map, hotspotBoxes: [], lowConfidenceBoxes: []).regions.count == 2)
        let read = lines.prefix(3).map { Page.box(x: $0.x, y: $0.y, words: $0.words) }
        let rest = analyzer.analyze(map, hotspotBoxes: read, lowConfidenceBoxes: [])
        #expect(rest.regions.count == 1 && rest.unreadLines.count == 3)
        #expect(analyzer.analyze(nil, hotspotBoxes: [], lowConfidenceBoxes: []) == TextRegionAnalyzer.Analysis())
    }

    @Test("the partial rule counts every read line, also when hotspots are per item")
    func partialCountsReadLinesWithItems() throws {
        // The first paragraph was read; one of its lines is a menu item.
        let image = try #require(Page.make(lines: lines))
        let read = lines.prefix(3).map { l -> OCRLine in
            let box = Page.box(x: l.x, y: l.y, words: l.words)
            return OCRLine(box: box, words: [OCRWord(text: "Soup", confidence: 0.9, box: box)])
        }
        let page = OCRPage(blocks: [OCRBlock(box: read[0].box.union(read[2].box), lines: read)])
        let item = HotspotItem(box: read[1].box, text: "Soup", confidence: 0.9)
        let stage = HotspotStage()
        let byLine = stage.run(page: page, image: image, status: .ok)
        let byItem = stage.run(page: page, image: image, status: .ok, items: [item])
        #expect(byItem.hotspots.count == 1 && byLine.hotspots.count == 3)
        #expect(byItem.coverage == byLine.coverage)
        #expect(byItem.status == byLine.status)
    }

    @Test("reasons: low_confidence where OCR read junk, cut_off at the photo edge")
    func reasons() throws {
        let page = try #require(Page.make(lines: [(100, 100, 4), (100, 130, 5), (100, 160, 3), (566, 300, 4), (566, 330, 5)]))
        let low = [Page.box(x: 100, y: 130, words: 5)]
        let regions = TextRegionAnalyzer().unrecognizedRegions(in: page, hotspotBoxes: [], lowConfidenceBoxes: low)
        #expect(regions.count == 2)
        #expect(regions.first?.reason == .lowConfidence)
        #expect(regions.last?.reason == .cutOff, "\(regions)")  // the right-hand lines run past x = 800
    }

    @Test("lines photographed at a slant (a page in perspective) are text too")
    func slantedLines() throws {
        // Three lines of 40 characters rising 1 px in 10 (about 6°): each box is four characters
        // tall, but each line is one character thick across its own slant.
        let page = try #require(Bitmap.filled(width: 800, height: 600, r: 250, g: 250, b: 245))
        for row in 0..<3 {
            for c in 0..<40 {
                let x = 100 + c * 14
                page.fill(Box(x: x, y: 150 + row * 40 + (x - 100) / 10, width: 9, height: 14), r: 30, g: 30, b: 30)
            }
        }
        let analysis = TextRegionAnalyzer().analyze(page, hotspotBoxes: [], lowConfidenceBoxes: [])
        #expect(analysis.regions.count == 1)
        #expect(analysis.candidateLines.count == 3)
        let r = try #require(analysis.regions.first)
        #expect(r.reason == .noWords && r.box.y <= 151 && r.box.maxY >= 296)
        #expect(TextRegionAnalyzer.band((0..<40).map { Box(x: 100 + $0 * 14, y: 150 + $0 * 14 / 10, width: 9, height: 14) }).thickness <= 16)
    }

    @Test("pictures and blank paper are not text: no region")
    func notText() throws {
        let blank = try #require(Bitmap.filled(width: 640, height: 480, r: 250, g: 250, b: 250))
        #expect(TextRegionAnalyzer().unrecognizedRegions(in: blank, hotspotBoxes: [], lowConfidenceBoxes: []).isEmpty)
        let picture = try #require(Bitmap.filled(width: 640, height: 480, r: 250, g: 250, b: 250))
        picture.fill(Box(x: 100, y: 100, width: 300, height: 200), r: 40, g: 90, b: 40)  // a photo of a dish
        picture.fill(Box(x: 150, y: 330, width: 400, height: 3), r: 20, g: 20, b: 20)    // a rule line
        #expect(TextRegionAnalyzer().unrecognizedRegions(in: picture, hotspotBoxes: [], lowConfidenceBoxes: []).isEmpty)
    }

    @Test("a large photo is analysed at working size and boxes come back in photo pixels")
    func scaledBack() throws {
        let big = try #require(Page.make(width: 2400, height: 1800, lines: [(300, 300, 6), (300, 330, 6), (300, 360, 6)]))
        // characters are 14 px tall here: at working size (÷2) they stay above the 6 px floor
        let regions = TextRegionAnalyzer().unrecognizedRegions(in: big, hotspotBoxes: [], lowConfidenceBoxes: [])
        let r = try #require(regions.first)
        #expect(regions.count == 1)
        #expect(abs(r.box.x - 300) <= 4 && abs(r.box.y - 300) <= 4 && r.box.maxY >= 374 && r.box.maxY <= 382)
    }
}
