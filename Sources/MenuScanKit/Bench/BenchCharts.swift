import Foundation

/// The two charts of bench.html as standalone SVG documents.
extension BenchRender {
    static let levelColours: [ConfidenceLevel: String] = [.low: "#cf222e", .medium: "#bf8700", .high: "#1a7f37"]

    /// Plot frame shared by both charts: the SVG size and the plot rectangle.
    struct Frame {
        var width = 520.0, height = 320.0
        var left = 60.0, right = 20.0, top = 44.0, bottom = 56.0
        var plotWidth: Double { width - left - right }
        var plotHeight: Double { height - top - bottom }
        /// x of a value 0…1 on the horizontal axis.
        func x(_ v: Double) -> Double { left + v * plotWidth }
        /// y of a value 0…yMax on the vertical axis.
        func y(_ v: Double, max yMax: Double) -> Double { top + plotHeight * (1 - v / yMax) }
    }

    /// Word-confidence histogram: words per bin, bars coloured by SPEC R6 level
    /// of the bin's middle, dashed lines at the level thresholds.
    public static func confidenceHistogramSVG(_ report: BenchReport) -> String {
        let f = Frame()
        let bins = report.confidence.histogram
        let step = niceStep(Double(bins.map(\.count).max() ?? 0) / 5)
        let maxCount = max(step, (Double(bins.map(\.count).max() ?? 0) / step).rounded(.up) * step)
        let title = "Word confidence: \(report.label) (\(report.confidence.words) words)"
        var s = svgOpen(f, title: title)
        // Horizontal grid and y ticks.
        for tick in stride(from: 0.0, through: maxCount, by: step) {
            let y = f.y(tick, max: maxCount)
            s += line(f.left, y, f.width - f.right, y, stroke: "#eaeef2")
            s += text(f.left - 6, y + 4, String(Int(tick)), anchor: "end", size: 11)
        }
        for bin in bins {
            let mid = (bin.lower + bin.upper) / 2
            let x0 = f.x(bin.lower) + 0.5, x1 = f.x(bin.upper) - 0.5
            let y = f.y(Double(bin.count), max: maxCount)
            let colour = levelColours[ConfidenceMetrics.level(mid)]!
            s += "<rect class=\"bar\" data-count=\"\(bin.count)\" x=\"\(c(x0))\" y=\"\(c(y))\" "
                + "width=\"\(c(x1 - x0))\" height=\"\(c(f.top + f.plotHeight - y))\" fill=\"\(colour)\">"
                + "<title>\(number(bin.lower, digits: 2))–\(number(bin.upper, digits: 2)): \(bin.count) words</title></rect>\n"
        }
        for threshold in [ConfidenceMetrics.mediumAbove, ConfidenceMetrics.highAbove] {
            let x = f.x(threshold)
            s += line(x, f.top, x, f.top + f.plotHeight, stroke: "#57606a", dash: true)
            s += text(x + 3, f.top + 10, number(threshold, digits: 2), anchor: "start", size: 10)
        }
        s += xAxis(f, label: "word confidence")
        s += yAxisLabel(f, "words")
        // Legend.
        var lx = f.width - f.right - 200
        for level in [ConfidenceLevel.low, .medium, .high] {
            s += "<rect x=\"\(c(lx))\" y=\"\(c(f.top - 18))\" width=\"10\" height=\"10\" fill=\"\(levelColours[level]!)\"/>"
            s += text(lx + 14, f.top - 9, level.rawValue, anchor: "start", size: 11)
            lx += 66
        }
        return s + "</svg>"
    }

    /// Reliability diagram: per confidence band the share of words that were
    /// correct (bars), against the diagonal of perfect calibration.
    public static func calibrationSVG(_ report: BenchReport) -> String {
        let calibration = report.accuracy?.calibration
        let ece = calibration?.expectedCalibrationError.map { ", ECE \(number($0))" } ?? ""
        let bands: [ReliabilityBand]? = calibration.flatMap { cal in
            cal.words > 0 ? cal.bins.compactMap { bin in
                guard let accuracy = bin.accuracy, let mean = bin.meanConfidence else { return nil }
                return ReliabilityBand(lower: bin.lower, upper: bin.upper, value: accuracy, mean: mean, count: bin.words,
                                       dataAttribute: "data-words",
                                       tooltip: "\(number(bin.lower, digits: 1))–\(number(bin.upper, digits: 1)): "
                                           + "\(bin.correct) of \(bin.words) words correct (\(percent(accuracy))), mean confidence \(number(mean))")
            } : nil
        }
        return reliabilitySVG(title: "Confidence vs accuracy: \(report.label)\(ece)", bands: bands,
                              fill: "#54aeff", fillOpacity: 0.55, dot: "#0550ae", minWidth: 0,
                              empty: "no ground truth: accuracy not measured", diagonalNote: true,
                              xLabel: "word confidence (band; dot = mean confidence)", yLabel: "share of words correct")
    }

    /// Photo-level reliability diagram (issue 17): per readConfidence band
    /// the photos' mean word recall (bars), against the diagonal.
    public static func readCalibrationSVG(_ report: BenchReport) -> String {
        let calibration = report.accuracy?.readCalibration
        let mae = calibration?.meanAbsoluteError.map { ", mean |error| \(number($0))" } ?? ""
        let bands: [ReliabilityBand]? = calibration.flatMap { cal in
            cal.photos > 0 ? cal.bands.compactMap { band in
                guard let recall = band.meanWordRecall, let mean = band.meanReadConfidence else { return nil }
                return ReliabilityBand(lower: band.lower, upper: band.upper, value: recall, mean: mean, count: band.photos,
                                       dataAttribute: "data-photos",
                                       tooltip: "\(number(band.lower, digits: 2))–\(number(band.upper, digits: 2)): \(band.photos) photos, "
                                           + "mean word recall \(number(recall)), mean readConfidence \(number(mean))")
            } : nil
        }
        return reliabilitySVG(title: "readConfidence vs word recall: \(report.label)\(mae)", bands: bands,
                              fill: "#8250df", fillOpacity: 0.45, dot: "#6639ba", minWidth: 1,
                              empty: "no ground truth or no readConfidence", diagonalNote: false,
                              xLabel: "readConfidence (band; dot = mean)", yLabel: "mean word recall of the photos")
    }

    /// One bar of a reliability diagram: a band of predicted confidence, the measured
    /// value (share correct, mean recall) and the band's mean prediction.
    private struct ReliabilityBand {
        var lower: Double, upper: Double, value: Double, mean: Double, count: Int
        var dataAttribute: String, tooltip: String
    }

    /// A reliability diagram: bars of measured value per band against the diagonal of
    /// perfect calibration; `bands` nil draws the `empty` message instead.
    private static func reliabilitySVG(title: String, bands: [ReliabilityBand]?, fill: String, fillOpacity: Double,
                                       dot: String, minWidth: Double, empty: String, diagonalNote: Bool,
                                       xLabel: String, yLabel: String) -> String {
        let f = Frame()
        var s = svgOpen(f, title: title)
        for tick in stride(from: 0.0, through: 1.0, by: 0.2) {
            let y = f.y(tick, max: 1)
            s += line(f.left, y, f.width - f.right, y, stroke: "#eaeef2")
            s += text(f.left - 6, y + 4, number(tick, digits: 1), anchor: "end", size: 11)
        }
        if let bands {
            for band in bands {
                let x0 = f.x(band.lower) + 1, x1 = f.x(band.upper) - 1
                let y = f.y(band.value, max: 1)
                s += "<rect class=\"band\" \(band.dataAttribute)=\"\(band.count)\" x=\"\(c(x0))\" y=\"\(c(y))\" "
                    + "width=\"\(c(max(minWidth, x1 - x0)))\" height=\"\(c(f.top + f.plotHeight - y))\" fill=\"\(fill)\" fill-opacity=\"\(fillOpacity)\">"
                    + "<title>\(band.tooltip)</title></rect>\n"
                s += "<circle cx=\"\(c(f.x(band.mean)))\" cy=\"\(c(y))\" r=\"3\" fill=\"\(dot)\"/>\n"
                s += text((x0 + x1) / 2, y - 5, "n=\(band.count)", anchor: "middle", size: 9)
            }
        } else {
            s += text(f.left + f.plotWidth / 2, f.top + f.plotHeight / 2, empty, anchor: "middle", size: 13)
        }
        s += line(f.x(0), f.y(0, max: 1), f.x(1), f.y(1, max: 1), stroke: "#57606a", dash: true)
        if diagonalNote { s += text(f.x(0.02), f.y(0.93, max: 1), "perfect calibration (dashed)", anchor: "start", size: 10) }
        s += xAxis(f, label: xLabel)
        s += yAxisLabel(f, yLabel)
        return s + "</svg>"
    }

    // MARK: SVG pieces

    private static func svgOpen(_ f: Frame, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(c(f.width))\" height=\"\(c(f.height))\" "
            + "viewBox=\"0 0 \(c(f.width)) \(c(f.height))\" role=\"img\" aria-label=\"\(xmlEscape(title))\" "
            + "font-family=\"system-ui, sans-serif\">\n<title>\(xmlEscape(title))</title>\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
            + text(f.left, 18, title, anchor: "start", size: 13, weight: "600")
    }

    /// The horizontal axis 0…1 with ticks every 0.1 and its label.
    private static func xAxis(_ f: Frame, label: String) -> String {
        let base = f.top + f.plotHeight
        var s = line(f.left, base, f.width - f.right, base, stroke: "#1f2328")
        s += line(f.left, f.top, f.left, base, stroke: "#1f2328")
        for k in 0...10 {
            let v = Double(k) / 10, x = f.x(v)
            s += line(x, base, x, base + 4, stroke: "#1f2328")
            s += text(x, base + 16, number(v, digits: 1), anchor: "middle", size: 11)
        }
        return s + text(f.left + f.plotWidth / 2, f.height - 12, label, anchor: "middle", size: 12)
    }

    private static func yAxisLabel(_ f: Frame, _ label: String) -> String {
        let x = 16.0, y = f.top + f.plotHeight / 2
        return "<text x=\"\(c(x))\" y=\"\(c(y))\" font-size=\"12\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 \(c(x)) \(c(y)))\" fill=\"#1f2328\">\(xmlEscape(label))</text>\n"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                             stroke: String, dash: Bool = false) -> String {
        "<line x1=\"\(c(x1))\" y1=\"\(c(y1))\" x2=\"\(c(x2))\" y2=\"\(c(y2))\" stroke=\"\(stroke)\""
            + (dash ? " stroke-dasharray=\"4 3\"" : "") + "/>\n"
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, anchor: String,
                             size: Int, weight: String = "normal") -> String {
        "<text x=\"\(c(x))\" y=\"\(c(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" "
            + "text-anchor=\"\(anchor)\" fill=\"#1f2328\">\(xmlEscape(content))</text>\n"
    }

    /// A coordinate with one decimal.
    private static func c(_ v: Double) -> String { String(format: "%.1f", v) }

    /// 1, 2 or 5 × 10^k at or above `raw` (at least 1: counts are whole).
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 1 else { return 1 }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        for m in [1.0, 2.0, 5.0, 10.0] where m * magnitude >= raw { return m * magnitude }
        return 10 * magnitude
    }
}
