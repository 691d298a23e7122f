import Foundation
import Testing
@testable import MenuScanKit

@Suite struct BenchRenderTests {
    let a = BenchReport.build(label: "default", photos: benchSamplePhotos, wallSeconds: 2, peakRSSBytes: 1_048_576)
    let b = BenchReport.build(label: "psm-6", photos: Array(benchSamplePhotos.prefix(1)), wallSeconds: 4, peakRSSBytes: nil)

    /// The cells of the Markdown table row whose first cell is `name`.
    func markdownRow(_ md: String, _ name: String) -> [String]? {
        for line in md.split(separator: "\n") where line.hasPrefix("| \(name) |") {
            return line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return nil
    }

    @Test func markdownShowsReportsAsColumns() {
        let md = BenchRender.markdown([a, b])
        #expect(md.contains("|  | default | psm-6 |"))
        #expect(markdownRow(md, "photos") == ["photos", "4", "1"])
        #expect(markdownRow(md, "ok") == ["ok", "2 (50.0 %)", "1 (100.0 %)"])
        #expect(markdownRow(md, "MSG-OCR-001") == ["MSG-OCR-001", "1", "0"])
        #expect(markdownRow(md, "CER (total errors / total length)") == ["CER (total errors / total length)", "0.500", "0.357"])
        #expect(markdownRow(md, "WER (mean of photos)") == ["WER (mean of photos)", "0.667", "0.333"])
        #expect(markdownRow(md, "word precision") == ["word precision", "0.667", "1.000"])
        #expect(markdownRow(md, "expected calibration error") == ["expected calibration error", "0.200", "0.200"])
        #expect(markdownRow(md, "high (> 0.85)") == ["high (> 0.85)", "50.0 % (2)", "50.0 % (1)"])
        #expect(markdownRow(md, "p50") == ["p50", "0.700", "0.700"])
        #expect(markdownRow(md, "0.90–1.00") == ["0.90–1.00", "1.000 (1)", "1.000 (1)"])
        #expect(markdownRow(md, "0.50–0.60") == ["0.50–0.60", "— (0)", "— (0)"])
        #expect(markdownRow(md, "0.90–0.95") == ["0.90–0.95", "1", "1"])
        #expect(markdownRow(md, "0.85–0.90") == ["0.85–0.90", "0", "0"])
        #expect(markdownRow(md, "photos per second") == ["photos per second", "2.00", "0.25"])
        #expect(markdownRow(md, "ocr: mean s per photo (total s)") == ["ocr: mean s per photo (total s)", "1.500 (3.00)", "1.000 (1.00)"])
        #expect(markdownRow(md, "peak memory (RSS)") == ["peak memory (RSS)", "1.0 MiB", "—"])
    }

    @Test func markdownEscapesPaths() {
        let photo = BenchPhoto(path: "odd|<&>_*.jpg", status: "ok", words: [BenchWord(text: "w", confidence: 0.5)])
        let md = BenchRender.markdown([BenchReport.build(label: "x", photos: [photo], wallSeconds: 1, peakRSSBytes: nil)])
        #expect(md.contains("| odd\\|\\<\\&>\\_\\*.jpg | ok | 0.500 | 0.500 | 1 |"))
        #expect(md.contains("| --- | --- | ---: | ---: | ---: |"))
    }

    @Test func htmlIsSelfContainedEscapedAndHasBothCharts() {
        var photos = benchSamplePhotos
        photos[0].path = "menus/<script>&amp.jpg"
        let r = BenchReport.build(label: "A&B <1>", photos: photos, wallSeconds: 1, peakRSSBytes: nil)
        let html = BenchRender.html([r, b])
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 6)   // three charts per report (the third: readConfidence vs word recall)
        #expect(!html.contains("<script"))
        #expect(html.contains("menus/&lt;script&gt;&amp;amp.jpg"))
        #expect(html.contains("A&amp;B &lt;1&gt;"))
        #expect(!html.contains("A&B"))
        for external in ["src=", "href=", "@import", "url(", "<link", "@font-face"] {
            #expect(!html.contains(external), "external reference \(external)")
        }
        #expect(html.contains("<th>A&amp;B &lt;1&gt;</th><th>psm-6</th>"))
        #expect(html.contains("<td class=\"text\">CER (total errors / total length)</td><td>0.500</td><td>0.357</td>"))
    }

    @Test func histogramSVGHasOneBarPerBinScaledToCounts() throws {
        let svg = BenchRender.confidenceHistogramSVG(a)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>"))
        let counts = matches(svg, #"class="bar" data-count="(\d+)""#).map { Int($0)! }
        #expect(counts == a.confidence.histogram.map(\.count))
        // Heights are proportional to counts: the y axis tops at 1 for these counts.
        let heights = matches(svg, #"class="bar" data-count="\d+" x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)""#)
            .map { Double($0)! }
        let full = BenchRender.Frame().plotHeight
        #expect(heights[18] == full && heights[0] == 0)
        #expect(svg.contains(">word confidence</text>") && svg.contains(">words</text>"))
        #expect(svg.contains("Word confidence: default (4 words)"))
    }

    @Test func calibrationSVGDrawsNonEmptyBands() {
        let svg = BenchRender.calibrationSVG(a)
        #expect(matches(svg, #"class="band" data-words="(\d+)""#) == ["1", "1", "1"])
        #expect(svg.contains("ECE 0.200"))
        #expect(svg.contains(">share of words correct</text>"))
        #expect(svg.contains("1 of 1 words correct (100.0 %)"))
        var noTruth = benchSamplePhotos
        for i in noTruth.indices { noTruth[i].groundTruth = nil }
        let empty = BenchRender.calibrationSVG(BenchReport.build(label: "n", photos: noTruth, wallSeconds: 1, peakRSSBytes: nil))
        #expect(empty.contains("no ground truth"))
        #expect(matches(empty, #"class="band""#).isEmpty)
    }

    @Test func svgEscapesLabels() {
        let r = BenchReport.build(label: "<b>&\"", photos: [], wallSeconds: 1, peakRSSBytes: nil)
        for svg in [BenchRender.confidenceHistogramSVG(r), BenchRender.calibrationSVG(r)] {
            #expect(svg.contains("&lt;b&gt;&amp;&quot;"))
            #expect(!svg.contains("<b>"))
        }
    }

    @Test func niceSteps() {
        #expect(BenchRender.niceStep(0.2) == 1)
        #expect(BenchRender.niceStep(3) == 5)
        #expect(BenchRender.niceStep(14) == 20)
        #expect(BenchRender.niceStep(50) == 50)
        #expect(BenchRender.niceStep(120) == 200)
    }

    /// First capture group of each match.
    func matches(_ s: String, _ pattern: String) -> [String] {
        let re = try! NSRegularExpression(pattern: pattern)
        let ns = s as NSString
        return re.matches(in: s, range: NSRange(location: 0, length: ns.length)).map {
            $0.numberOfRanges > 1 ? ns.substring(with: $0.range(at: 1)) : ns.substring(with: $0.range)
        }
    }
}
