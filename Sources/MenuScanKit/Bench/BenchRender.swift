import Foundation

/// Renders bench reports as bench.json, bench.md and a self-contained
/// bench.html with inline SVG charts. Several reports (one per `--config`)
/// appear as columns side by side.
public enum BenchRender {
    public static let schemaVersion = 1

    /// bench.json: `{"schemaVersion": 1, "reports": [BenchReport…]}`, keys sorted.
    public static func json(_ reports: [BenchReport]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(BenchFile(schemaVersion: schemaVersion, reports: reports))
    }

    /// bench.md: the tables of `tables(_:)` in GitHub-flavoured Markdown.
    public static func markdown(_ reports: [BenchReport]) -> String {
        var out = "# MenuScan bench\n\n"
        for section in sections(reports) {
            out += "## \(markdownEscape(section.title))\n\n"
            if let note = section.note { out += markdownEscape(note) + "\n\n" }
            for table in section.tables {
                if let caption = table.caption { out += "**\(markdownEscape(caption))**\n\n" }
                out += "| " + table.header.map(markdownEscape).joined(separator: " | ") + " |\n"
                out += "|" + table.header.indices.map { $0 < table.textColumns ? " --- |" : " ---: |" }.joined() + "\n"
                for row in table.rows {
                    out += "| " + row.map(markdownEscape).joined(separator: " | ") + " |\n"
                }
                out += "\n"
            }
        }
        return out
    }

    /// bench.html: one static page, no scripts, fonts or network; the charts
    /// are inline SVG, one column per report.
    public static func html(_ reports: [BenchReport]) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>MenuScan bench</title>
        <style>
        body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #1f2328; }
        h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
        table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
        th, td { border: 1px solid #d0d7de; padding: .25rem .6rem; }
        th { background: #f6f8fa; } td { text-align: right; font-variant-numeric: tabular-nums; } td.text { text-align: left; }
        caption { text-align: left; font-weight: 600; padding: .3rem 0; }
        .note { color: #57606a; font-size: .85rem; max-width: 60rem; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1.5rem; }
        figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: .3rem; }
        svg { max-width: 100%; height: auto; }
        </style>
        </head>
        <body>
        <h1>MenuScan bench</h1>

        """
        out += "<p>Runs: " + reports.map { "<strong>\(xmlEscape($0.label))</strong> (\($0.photos) photos)" }
            .joined(separator: ", ") + "</p>\n"
        out += "<h2>Charts</h2>\n<div class=\"charts\">\n"
        for report in reports {
            out += "<figure>\n<figcaption>\(xmlEscape(report.label))</figcaption>\n"
            out += confidenceHistogramSVG(report) + "\n" + calibrationSVG(report) + "\n" + readCalibrationSVG(report) + "\n</figure>\n"
        }
        out += "</div>\n"
        for section in sections(reports) {
            out += "<h2>\(xmlEscape(section.title))</h2>\n"
            if let note = section.note { out += "<p class=\"note\">\(xmlEscape(note))</p>\n" }
            for table in section.tables {
                out += "<table>\n"
                if let caption = table.caption { out += "<caption>\(xmlEscape(caption))</caption>\n" }
                out += "<thead><tr>" + table.header.map { "<th>\(xmlEscape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
                for row in table.rows {
                    out += "<tr>" + row.enumerated().map { i, cell in
                        (i < table.textColumns ? "<td class=\"text\">" : "<td>") + xmlEscape(cell) + "</td>"
                    }.joined() + "</tr>\n"
                }
                out += "</tbody>\n</table>\n"
            }
        }
        out += "</body>\n</html>\n"
        return out
    }

    // MARK: Tables shared by Markdown and HTML

    struct Table {
        var caption: String?
        var header: [String]
        var rows: [[String]]
        /// Leading columns that hold text (left-aligned); the rest are figures.
        var textColumns = 1
    }

    struct Section {
        var title: String
        var note: String?
        var tables: [Table]
    }

    static func sections(_ reports: [BenchReport]) -> [Section] {
        let header = [""] + reports.map(\.label)
        func row(_ name: String, _ cell: (BenchReport) -> String) -> [String] { [name] + reports.map(cell) }

        // Outcomes
        var outcomeRows = [row("photos") { "\($0.photos)" }]
        let statuses = BenchPhoto.knownStatuses
            + Set(reports.flatMap(\.outcomes.keys)).subtracting(BenchPhoto.knownStatuses).sorted()
        for status in statuses {
            outcomeRows.append(row(status) { r in
                "\(r.outcomes[status] ?? 0) (\(percent(r.outcomeRates[status] ?? 0)))"
            })
        }
        for code in Set(reports.flatMap(\.messageCodes.keys)).sorted() {
            outcomeRows.append(row(code) { "\($0.messageCodes[code] ?? 0)" })
        }

        // Confidence
        var confidenceRows = [
            row("words with a confidence") { "\($0.confidence.words)" },
            row("words without one") { "\($0.confidence.wordsWithoutConfidence)" },
            row("mean") { number($0.confidence.mean) },
        ]
        for (i, rank) in ConfidenceMetrics.percentileRanks.enumerated() {
            confidenceRows.append(row("p\(rank)") { number($0.confidence.percentiles.all[i].value) })
        }
        for (level, rule) in [(ConfidenceLevel.high, "> 0.85"), (.medium, "> 0.65"), (.low, "≤ 0.65")] {
            confidenceRows.append(row("\(level.rawValue) (\(rule))") { r in
                let s = r.confidence.levels[level]
                return "\(percent(s.share)) (\(s.words))"
            })
        }
        let histogramRows = (0..<ConfidenceMetrics.histogramBins).map { k in
            let bin = reports.first?.confidence.histogram[k]
            return [band(bin?.lower, bin?.upper)] + reports.map { "\($0.confidence.histogram[k].count)" }
        }

        // Accuracy
        func acc(_ name: String, _ cell: @escaping (AccuracySummary) -> String) -> [String] {
            row(name) { $0.accuracy.map(cell) ?? "—" }
        }
        let accuracyRows = [
            acc("photos with ground truth") { "\($0.photos)" },
            acc("CER (total errors / total length)") { number($0.cer) },
            acc("CER (mean of photos)") { number($0.cerMean) },
            acc("WER (total errors / total length)") { number($0.wer) },
            acc("WER (mean of photos)") { number($0.werMean) },
            acc("word recall") { number($0.wordRecall) },
            acc("word precision") { number($0.wordPrecision) },
            acc("words scored for calibration") { "\($0.calibration.words)" },
            acc("their accuracy") { number($0.calibration.accuracy) },
            acc("their mean confidence") { number($0.calibration.meanConfidence) },
            acc("expected calibration error") { number($0.calibration.expectedCalibrationError) },
        ]
        let calibrationRows = (0..<ConfidenceMetrics.calibrationBins).map { k in
            let lower = Double(k) / Double(ConfidenceMetrics.calibrationBins)
            let upper = Double(k + 1) / Double(ConfidenceMetrics.calibrationBins)
            return [band(lower, upper)] + reports.map { r -> String in
                guard let bin = r.accuracy?.calibration.bins[k] else { return "—" }
                return bin.words == 0 ? "— (0)" : "\(number(bin.accuracy)) (\(bin.words))"
            }
        }

        let readEdges = ReadCalibration.edges
        let readCalibrationRows = (0..<(readEdges.count - 1)).map { k in
            [band(readEdges[k], readEdges[k + 1])] + reports.map { r -> String in
                guard let b = r.accuracy?.readCalibration.bands[k], b.photos > 0 else { return "— (0)" }
                return "\(number(b.meanReadConfidence)) → \(number(b.meanWordRecall)) (\(b.photos)\(b.recallBelow07 > 0 ? ", \(b.recallBelow07) < 0.7" : ""))"
            }
        }

        // Speed
        var speedRows = [
            row("wall time (s)") { number($0.speed.wallSeconds, digits: 2) },
            row("photos per second") { number($0.speed.photosPerSecond, digits: 2) },
        ]
        let stageNames = reports.flatMap(\.speed.orderedStages).reduce(into: [String]()) { names, s in
            if !names.contains(s) { names.append(s) }
        }
        for stage in stageNames {
            speedRows.append(row("\(stage): mean s per photo (total s)") { r in
                guard let t = r.speed.stages[stage] else { return "—" }
                return "\(number(t.meanSeconds)) (\(number(t.totalSeconds, digits: 2)))"
            })
        }
        speedRows.append(row("peak memory (RSS)") { r in r.speed.peakRSSBytes.map(byteCount) ?? "—" })

        var result = [
            Section(title: "Outcomes", note: "Photos per status (share of all photos); message codes count photos.",
                    tables: [Table(header: header, rows: outcomeRows)]),
            Section(title: "Confidence",
                    note: "Word confidences 0…1 over all words of all photos. Percentiles by nearest rank. "
                        + "Levels as SPEC R6: high > 0.85, medium > 0.65, otherwise low.",
                    tables: [Table(header: header, rows: confidenceRows),
                             Table(caption: "Histogram (words per confidence bin; bin includes its lower edge)",
                                   header: ["bin"] + reports.map(\.label), rows: histogramRows)]),
            Section(title: "Accuracy",
                    note: "Photos with NAME.gt.txt. Text is normalised by Unicode NFKC and whitespace folding. "
                        + "CER counts Unicode scalars, case-sensitive; WER and word recall/precision compare "
                        + "lower-cased words; recall/precision are order-free (multiset). Calibration: "
                        + ConfidenceMetrics.matchingRule + ".",
                    tables: [Table(header: header, rows: accuracyRows),
                             Table(caption: "Accuracy per confidence band (words)",
                                   header: ["band"] + reports.map(\.label), rows: calibrationRows),
                             Table(caption: "readConfidence vs word recall (photos): mean readConfidence → mean word recall (photos, of them with recall < 0.7)",
                                   header: ["readConfidence band"] + reports.map(\.label), rows: readCalibrationRows)]),
            Section(title: "Speed", note: "Stage times are per photo as the pipeline measured them.",
                    tables: [Table(header: header, rows: speedRows)]),
        ]

        var lowest: [Table] = []
        var perPhoto: [Table] = []
        for r in reports {
            lowest.append(Table(caption: r.label, header: ["photo", "status", "mean", "min", "words"],
                                rows: r.confidence.lowest.map {
                                    [$0.path, $0.status, number($0.mean), number($0.min), "\($0.words)"]
                                }, textColumns: 2))
            if let a = r.accuracy {
                perPhoto.append(Table(caption: r.label,
                                      header: ["photo", "CER", "WER", "word recall", "word precision"],
                                      rows: a.perPhoto.map {
                                          [$0.path, number($0.cer), number($0.wer),
                                           number($0.wordRecall), number($0.wordPrecision)]
                                      }))
            }
        }
        result.append(Section(title: "Lowest confidence", note: "Photos with the lowest mean word confidence.",
                              tables: lowest))
        if !perPhoto.isEmpty {
            result.append(Section(title: "Accuracy per photo", note: nil, tables: perPhoto))
        }
        return result
    }

    // MARK: Formatting

    static func number(_ x: Double?, digits: Int = 3) -> String {
        guard let x, x.isFinite else { return "—" }
        return String(format: "%.\(digits)f", x)
    }

    static func percent(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "—" }
        return String(format: "%.1f %%", x * 100)
    }

    static func band(_ lower: Double?, _ upper: Double?) -> String {
        "\(number(lower, digits: 2))–\(number(upper, digits: 2))"
    }

    static func byteCount(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    /// Text safe in HTML/SVG element content and attribute values.
    public static func xmlEscape(_ s: String) -> String { Markup.escape(s) }

    /// Text safe in a Markdown table cell: CommonMark backslash escapes for the
    /// punctuation that could start inline markup, an HTML tag or entity, or end
    /// the cell; line breaks become spaces. (Cells never start a line, so block
    /// markers such as `#` and `>` need no escape.)
    public static func markdownEscape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\", "`", "*", "_", "[", "]", "<", "|", "&":
                out += "\\"
                out.unicodeScalars.append(c)
            case "\n", "\r": out += " "
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

/// The top level of bench.json.
public struct BenchFile: Codable, Sendable, Equatable {
    public var schemaVersion: Int
    public var reports: [BenchReport]

    public init(schemaVersion: Int, reports: [BenchReport]) {
        self.schemaVersion = schemaVersion
        self.reports = reports
    }
}
