/// Statistics of word confidences: histogram, percentiles, levels (SPEC R6)
/// and calibration against ground truth.
public enum ConfidenceMetrics {
    /// SPEC R6: high > 0.85, medium > 0.65, otherwise low.
    public static let highAbove = ConfidenceLevel.highAbove
    public static let mediumAbove = ConfidenceLevel.mediumAbove
    /// Bins of the confidence histogram.
    public static let histogramBins = 20
    /// Confidence bands of the calibration table.
    public static let calibrationBins = 10
    /// The percentiles reported, in per cent.
    public static let percentileRanks = [5, 10, 25, 50, 75, 90, 95]

    /// A confidence fit for statistics: clamped to 0…1; nil for nil or NaN.
    public static func sanitised(_ confidence: Double?) -> Double? {
        guard let c = confidence, !c.isNaN else { return nil }
        return min(1, max(0, c))
    }

    /// The bin of `value` (0…1) among `bins` equal bins: bin k holds
    /// k/bins ≤ value < (k+1)/bins, the last bin also holds 1. Edges are the
    /// doubles `Double(k) / Double(bins)`, so 0.85 falls in the bin that starts at 0.85.
    public static func binIndex(_ value: Double, bins: Int) -> Int {
        let n = Double(bins)
        var k = min(bins - 1, max(0, Int(value * n)))
        while k > 0, value < Double(k) / n { k -= 1 }
        while k < bins - 1, value >= Double(k + 1) / n { k += 1 }
        return k
    }

    /// Counts per bin over 0…1.
    public static func histogram(_ confidences: [Double], bins: Int = histogramBins) -> [HistogramBin] {
        var counts = [Int](repeating: 0, count: bins)
        for c in confidences { counts[binIndex(c, bins: bins)] += 1 }
        return counts.enumerated().map { k, count in
            HistogramBin(lower: Double(k) / Double(bins), upper: Double(k + 1) / Double(bins), count: count)
        }
    }

    /// Nearest-rank percentile: the smallest value such that at least p % of
    /// the values are at or below it, i.e. `sorted[ceil(p × n / 100) − 1]`
    /// (rank at least 1). nil when there are no values.
    public static func percentile(sorted: [Double], _ p: Int) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = max(1, (p * sorted.count + 99) / 100)
        return sorted[min(rank, sorted.count) - 1]
    }

    public static func percentiles(_ confidences: [Double]) -> Percentiles {
        let s = confidences.sorted()
        return Percentiles(p5: percentile(sorted: s, 5), p10: percentile(sorted: s, 10),
                           p25: percentile(sorted: s, 25), p50: percentile(sorted: s, 50),
                           p75: percentile(sorted: s, 75), p90: percentile(sorted: s, 90),
                           p95: percentile(sorted: s, 95))
    }

    public static func level(_ confidence: Double) -> ConfidenceLevel {
        ConfidenceLevel(confidence: confidence)
    }

    /// Number and share of the confidences in each level.
    public static func levels(_ confidences: [Double]) -> Levels {
        var high = 0, medium = 0, low = 0
        for c in confidences {
            switch level(c) {
            case .high: high += 1
            case .medium: medium += 1
            case .low: low += 1
            }
        }
        func share(_ n: Int) -> LevelShare {
            LevelShare(words: n, share: confidences.isEmpty ? nil : Double(n) / Double(confidences.count))
        }
        return Levels(high: share(high), medium: share(medium), low: share(low))
    }

    /// The matching rule behind calibration, as written into bench.json.
    public static let matchingRule = "order-free multiset: a recognised word is correct when its words "
        + "(TextMetrics.words: NFKC, whitespace folded, lower-cased) can all be taken from what is left "
        + "of the photo's ground-truth word multiset; words are taken in reading order, so of repeated "
        + "words the earliest are matched first"

    /// Whether each recognised word is correct under `matchingRule`; nil for a
    /// word that normalises to nothing (left out of calibration).
    public static func matchWords(_ words: [BenchWord], groundTruth: String) -> [Bool?] {
        var vocabulary = WordVocabulary()
        var remaining: [Int: Int] = [:]
        for id in vocabulary.ids(TextMetrics.words(groundTruth)) { remaining[id, default: 0] += 1 }
        return words.map { word in
            let ids = vocabulary.ids(TextMetrics.words(word.text))
            guard !ids.isEmpty else { return nil }
            var needed: [Int: Int] = [:]
            for id in ids { needed[id, default: 0] += 1 }
            guard needed.allSatisfy({ remaining[$0.key, default: 0] >= $0.value }) else { return false }
            for (id, n) in needed { remaining[id]! -= n }
            return true
        }
    }

    /// Accuracy per confidence band and the expected calibration error
    /// ECE = Σ_b (n_b / N) · |accuracy_b − mean confidence_b| over non-empty bands.
    public static func calibration(_ samples: [(confidence: Double, correct: Bool)],
                                   wordsWithoutConfidence: Int = 0,
                                   bins: Int = calibrationBins) -> Calibration {
        var n = [Int](repeating: 0, count: bins), correct = n
        var sum = [Double](repeating: 0, count: bins)
        for s in samples {
            let k = binIndex(s.confidence, bins: bins)
            n[k] += 1
            sum[k] += s.confidence
            if s.correct { correct[k] += 1 }
        }
        let total = samples.count
        var ece = 0.0
        let bands = (0..<bins).map { k -> CalibrationBin in
            let accuracy = n[k] > 0 ? Double(correct[k]) / Double(n[k]) : nil
            let mean = n[k] > 0 ? sum[k] / Double(n[k]) : nil
            if let accuracy, let mean { ece += Double(n[k]) / Double(total) * abs(accuracy - mean) }
            return CalibrationBin(lower: Double(k) / Double(bins), upper: Double(k + 1) / Double(bins),
                                  words: n[k], correct: correct[k], accuracy: accuracy, meanConfidence: mean)
        }
        let allCorrect = correct.reduce(0, +)
        return Calibration(
            matching: matchingRule, bins: bands, words: total, correct: allCorrect,
            accuracy: total > 0 ? Double(allCorrect) / Double(total) : nil,
            meanConfidence: total > 0 ? samples.reduce(0) { $0 + $1.confidence } / Double(total) : nil,
            expectedCalibrationError: total > 0 ? ece : nil,
            wordsWithoutConfidence: wordsWithoutConfidence)
    }
}

public struct HistogramBin: Codable, Sendable, Equatable {
    public var lower: Double
    public var upper: Double
    public var count: Int
}

/// Nearest-rank percentiles of word confidences; nil when there are no words.
public struct Percentiles: Codable, Sendable, Equatable {
    public var p5: Double?
    public var p10: Double?
    public var p25: Double?
    public var p50: Double?
    public var p75: Double?
    public var p90: Double?
    public var p95: Double?

    /// (name, value) in rank order, for rendering.
    public var all: [(name: String, value: Double?)] {
        [("p5", p5), ("p10", p10), ("p25", p25), ("p50", p50), ("p75", p75), ("p90", p90), ("p95", p95)]
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(p5, forKey: .p5); try c.encode(p10, forKey: .p10); try c.encode(p25, forKey: .p25)
        try c.encode(p50, forKey: .p50); try c.encode(p75, forKey: .p75); try c.encode(p90, forKey: .p90)
        try c.encode(p95, forKey: .p95)
    }
}

public struct LevelShare: Codable, Sendable, Equatable {
    public var words: Int
    /// words / all words with a confidence; nil when there are none.
    public var share: Double?

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(words, forKey: .words)
        try c.encode(share, forKey: .share)
    }
}

public struct Levels: Codable, Sendable, Equatable {
    public var high: LevelShare
    public var medium: LevelShare
    public var low: LevelShare

    public subscript(level: ConfidenceLevel) -> LevelShare {
        switch level {
        case .high: high
        case .medium: medium
        case .low: low
        }
    }
}

public struct CalibrationBin: Codable, Sendable, Equatable {
    public var lower: Double
    public var upper: Double
    public var words: Int
    public var correct: Int
    /// correct / words; nil for an empty band.
    public var accuracy: Double?
    public var meanConfidence: Double?

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lower, forKey: .lower); try c.encode(upper, forKey: .upper)
        try c.encode(words, forKey: .words); try c.encode(correct, forKey: .correct)
        try c.encode(accuracy, forKey: .accuracy); try c.encode(meanConfidence, forKey: .meanConfidence)
    }
}

public struct Calibration: Codable, Sendable, Equatable {
    /// The rule that decides whether a recognised word is correct.
    public var matching: String
    public var bins: [CalibrationBin]
    /// Words with a confidence on photos with ground truth.
    public var words: Int
    public var correct: Int
    public var accuracy: Double?
    public var meanConfidence: Double?
    public var expectedCalibrationError: Double?
    /// Words on photos with ground truth that carry no confidence (left out).
    public var wordsWithoutConfidence: Int

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(matching, forKey: .matching); try c.encode(bins, forKey: .bins)
        try c.encode(words, forKey: .words); try c.encode(correct, forKey: .correct)
        try c.encode(accuracy, forKey: .accuracy); try c.encode(meanConfidence, forKey: .meanConfidence)
        try c.encode(expectedCalibrationError, forKey: .expectedCalibrationError)
        try c.encode(wordsWithoutConfidence, forKey: .wordsWithoutConfidence)
    }
}
