/// The bench figures of one run (one `--config`) over a set of photos.
/// Field by field in `docs/bench-schema.md`. It holds metrics, paths and
/// message codes only, never recognised text (R12).
public struct BenchReport: Codable, Sendable, Equatable {
    /// How many photos the `lowest` list holds at most.
    public static let lowestCount = 10

    public var label: String
    /// Number of photos.
    public var photos: Int
    /// Photos per status; the five known statuses always appear.
    public var outcomes: [String: Int]
    /// outcomes / photos (0 when there are no photos).
    public var outcomeRates: [String: Double]
    /// Number of photos that carry each message code (a code counts once per photo).
    public var messageCodes: [String: Int]
    public var confidence: ConfidenceSummary
    /// nil when no photo has ground truth.
    public var accuracy: AccuracySummary?
    public var speed: SpeedSummary

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(label, forKey: .label); try c.encode(photos, forKey: .photos)
        try c.encode(outcomes, forKey: .outcomes); try c.encode(outcomeRates, forKey: .outcomeRates)
        try c.encode(messageCodes, forKey: .messageCodes); try c.encode(confidence, forKey: .confidence)
        try c.encode(accuracy, forKey: .accuracy); try c.encode(speed, forKey: .speed)
    }

    public static func build(label: String, photos: [BenchPhoto], wallSeconds: Double, peakRSSBytes: Int?) -> BenchReport {
        var outcomes = Dictionary(uniqueKeysWithValues: BenchPhoto.knownStatuses.map { ($0, 0) })
        var codes: [String: Int] = [:]
        for photo in photos {
            outcomes[photo.status, default: 0] += 1
            for code in Set(photo.messageCodes) { codes[code, default: 0] += 1 }
        }
        let rates = outcomes.mapValues { photos.isEmpty ? 0 : Double($0) / Double(photos.count) }
        return BenchReport(label: label, photos: photos.count, outcomes: outcomes, outcomeRates: rates,
                           messageCodes: codes, confidence: ConfidenceSummary(photos),
                           accuracy: AccuracySummary(photos), speed: SpeedSummary(photos, wallSeconds: wallSeconds,
                                                                                  peakRSSBytes: peakRSSBytes))
    }
}

/// Word confidences over all words of all photos.
public struct ConfidenceSummary: Codable, Sendable, Equatable {
    /// Words with a confidence (the population of every figure here).
    public var words: Int
    public var wordsWithoutConfidence: Int
    public var mean: Double?
    public var histogram: [HistogramBin]
    public var percentiles: Percentiles
    public var levels: Levels
    /// One entry per photo, in input order.
    public var perPhoto: [PhotoConfidence]
    /// Up to `BenchReport.lowestCount` photos with the lowest mean confidence,
    /// lowest first (ties by path); photos without any confidence are left out.
    public var lowest: [PhotoConfidence]

    init(_ photos: [BenchPhoto]) {
        var all: [Double] = []
        var missing = 0
        perPhoto = photos.map { photo in
            let c = photo.words.compactMap { ConfidenceMetrics.sanitised($0.confidence) }
            missing += photo.words.count - c.count
            all += c
            return PhotoConfidence(path: photo.path, status: photo.status, words: c.count,
                                   mean: c.isEmpty ? nil : c.reduce(0, +) / Double(c.count), min: c.min())
        }
        words = all.count
        wordsWithoutConfidence = missing
        mean = all.isEmpty ? nil : all.reduce(0, +) / Double(all.count)
        histogram = ConfidenceMetrics.histogram(all)
        percentiles = ConfidenceMetrics.percentiles(all)
        levels = ConfidenceMetrics.levels(all)
        lowest = Array(perPhoto.filter { $0.mean != nil }
            .sorted { ($0.mean!, $0.path) < ($1.mean!, $1.path) }
            .prefix(BenchReport.lowestCount))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(words, forKey: .words); try c.encode(wordsWithoutConfidence, forKey: .wordsWithoutConfidence)
        try c.encode(mean, forKey: .mean); try c.encode(histogram, forKey: .histogram)
        try c.encode(percentiles, forKey: .percentiles); try c.encode(levels, forKey: .levels)
        try c.encode(perPhoto, forKey: .perPhoto); try c.encode(lowest, forKey: .lowest)
    }
}

public struct PhotoConfidence: Codable, Sendable, Equatable {
    public var path: String
    public var status: String
    /// Words with a confidence.
    public var words: Int
    public var mean: Double?
    public var min: Double?

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path); try c.encode(status, forKey: .status)
        try c.encode(words, forKey: .words); try c.encode(mean, forKey: .mean); try c.encode(min, forKey: .min)
    }
}

/// Accuracy over the photos that have ground truth (whatever their status: a
/// photo that read nothing is scored as the empty text).
public struct AccuracySummary: Codable, Sendable, Equatable {
    /// Photos with ground truth.
    public var photos: Int
    /// Total character errors / total reference characters.
    public var cer: Double
    /// Total word errors / total reference words.
    public var wer: Double
    /// Mean of the per-photo CERs.
    public var cerMean: Double
    /// Mean of the per-photo WERs.
    public var werMean: Double
    /// Total matched words / total reference words.
    public var wordRecall: Double
    /// Total matched words / total recognised words.
    public var wordPrecision: Double
    /// The counts added up over the photos.
    public var counts: TextComparison
    public var calibration: Calibration
    /// Photo-level calibration: mean readConfidence vs measured word recall per band.
    public var readCalibration: ReadCalibration
    public var perPhoto: [PhotoAccuracy]

    /// nil when no photo has ground truth.
    init?(_ photos: [BenchPhoto]) {
        var per: [PhotoAccuracy] = []
        var samples: [(confidence: Double, correct: Bool)] = []
        var missing = 0
        for photo in photos {
            guard let truth = photo.groundTruth else { continue }
            per.append(PhotoAccuracy(path: photo.path, counts: TextMetrics.compare(ref: truth, hyp: photo.text)))
            let matched = ConfidenceMetrics.matchWords(photo.words, groundTruth: truth)
            for (word, correct) in zip(photo.words, matched) {
                guard let correct else { continue }
                if let c = ConfidenceMetrics.sanitised(word.confidence) {
                    samples.append((c, correct))
                } else {
                    missing += 1
                }
            }
        }
        guard !per.isEmpty else { return nil }
        let total = per.reduce(TextComparison.zero) { $0 + $1.counts }
        self.photos = per.count
        counts = total
        cer = total.cer
        wer = total.wer
        cerMean = per.reduce(0) { $0 + $1.cer } / Double(per.count)
        werMean = per.reduce(0) { $0 + $1.wer } / Double(per.count)
        wordRecall = total.wordRecall
        wordPrecision = total.wordPrecision
        calibration = ConfidenceMetrics.calibration(samples, wordsWithoutConfidence: missing)
        readCalibration = ReadCalibration(zip(photos.filter { $0.groundTruth != nil }, per).compactMap { photo, acc in
            photo.readConfidence.map { (ConfidenceMetrics.sanitised($0) ?? 0, acc.wordRecall) }
        })
        perPhoto = per
    }
}

public struct PhotoAccuracy: Codable, Sendable, Equatable {
    public var path: String
    public var cer: Double
    public var wer: Double
    public var wordRecall: Double
    public var wordPrecision: Double
    public var counts: TextComparison

    public init(path: String, counts: TextComparison) {
        self.path = path
        self.counts = counts
        cer = counts.cer
        wer = counts.wer
        wordRecall = counts.wordRecall
        wordPrecision = counts.wordPrecision
    }
}

public struct SpeedSummary: Codable, Sendable, Equatable {
    /// The standard stage order for rendering; other stages follow by name.
    public static let stageOrder = ["decode", "quality", "ocr", "classify", "output"]

    public var wallSeconds: Double
    /// photos / wallSeconds; nil when wallSeconds ≤ 0.
    public var photosPerSecond: Double?
    public var stages: [String: StageTiming]
    public var peakRSSBytes: Int?

    init(_ photos: [BenchPhoto], wallSeconds: Double, peakRSSBytes: Int?) {
        self.wallSeconds = wallSeconds
        photosPerSecond = wallSeconds > 0 ? Double(photos.count) / wallSeconds : nil
        var seconds: [String: [Double]] = [:]
        for photo in photos {
            for (stage, s) in photo.stageSeconds where s.isFinite { seconds[stage, default: []].append(s) }
        }
        stages = seconds.mapValues { s in
            let total = s.reduce(0, +)
            return StageTiming(photos: s.count, totalSeconds: total, meanSeconds: total / Double(s.count),
                               maxSeconds: s.max()!)
        }
        self.peakRSSBytes = peakRSSBytes
    }

    /// Stage names present, in `stageOrder` then alphabetical.
    public var orderedStages: [String] {
        Self.stageOrder.filter { stages[$0] != nil }
            + stages.keys.filter { !Self.stageOrder.contains($0) }.sorted()
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(wallSeconds, forKey: .wallSeconds); try c.encode(photosPerSecond, forKey: .photosPerSecond)
        try c.encode(stages, forKey: .stages); try c.encode(peakRSSBytes, forKey: .peakRSSBytes)
    }
}

public struct StageTiming: Codable, Sendable, Equatable {
    /// Photos that report this stage.
    public var photos: Int
    public var totalSeconds: Double
    /// totalSeconds / photos.
    public var meanSeconds: Double
    public var maxSeconds: Double
}

/// How well a photo's readConfidence predicts its word recall (issue 17):
/// photos with ground truth and a readConfidence, in bands of readConfidence.
public struct ReadCalibration: Codable, Sendable, Equatable {
    public struct Band: Codable, Sendable, Equatable {
        public var lower: Double
        public var upper: Double
        public var photos: Int
        /// nil for an empty band.
        public var meanReadConfidence: Double?
        public var meanWordRecall: Double?
        /// Photos in the band with word recall below 0.7.
        public var recallBelow07: Int

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(lower, forKey: .lower); try c.encode(upper, forKey: .upper); try c.encode(photos, forKey: .photos)
            try c.encode(meanReadConfidence, forKey: .meanReadConfidence); try c.encode(meanWordRecall, forKey: .meanWordRecall)
            try c.encode(recallBelow07, forKey: .recallBelow07)
        }
    }

    /// Bands of readConfidence: R6's levels split further.
    public static let edges = [0.0, 0.2, 0.4, 0.6, 0.65, 0.75, 0.85, 0.9, 0.95, 1.0]
    public var bands: [Band]
    public var photos: Int
    /// Mean |readConfidence − word recall| over the photos; nil without photos.
    public var meanAbsoluteError: Double?

    public init(_ samples: [(readConfidence: Double, recall: Double)]) {
        let e = Self.edges
        bands = (0..<(e.count - 1)).map { k in
            let inBand = samples.filter { s in
                s.readConfidence >= e[k] && (s.readConfidence < e[k + 1] || (k == e.count - 2 && s.readConfidence <= 1))
            }
            let n = Double(inBand.count)
            return Band(lower: e[k], upper: e[k + 1], photos: inBand.count,
                        meanReadConfidence: inBand.isEmpty ? nil : inBand.reduce(0) { $0 + $1.readConfidence } / n,
                        meanWordRecall: inBand.isEmpty ? nil : inBand.reduce(0) { $0 + $1.recall } / n,
                        recallBelow07: inBand.filter { $0.recall < 0.7 }.count)
        }
        photos = samples.count
        meanAbsoluteError = samples.isEmpty ? nil
            : samples.reduce(0) { $0 + abs($1.readConfidence - $1.recall) } / Double(samples.count)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bands, forKey: .bands); try c.encode(photos, forKey: .photos)
        try c.encode(meanAbsoluteError, forKey: .meanAbsoluteError)
    }
}
