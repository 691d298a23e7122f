import Testing
@testable import MenuScanKit

@Suite struct BenchConfidenceTests {
    @Test func binEdgesBelongToTheUpperBin() {
        #expect(ConfidenceMetrics.binIndex(0.0, bins: 20) == 0)
        #expect(ConfidenceMetrics.binIndex(0.0499, bins: 20) == 0)
        #expect(ConfidenceMetrics.binIndex(0.05, bins: 20) == 1)
        #expect(ConfidenceMetrics.binIndex(0.5, bins: 20) == 10)
        #expect(ConfidenceMetrics.binIndex(0.85, bins: 20) == 17)
        #expect(ConfidenceMetrics.binIndex(85.0 / 100, bins: 20) == 17)
        #expect(ConfidenceMetrics.binIndex(0.3, bins: 10) == 3)
        // 0.57 × 100 = 56.99999999999999 in doubles; the edge 57/100 is the double 0.57.
        #expect(ConfidenceMetrics.binIndex(0.57, bins: 100) == 57)
        #expect(ConfidenceMetrics.binIndex(0.7, bins: 10) == 7)
        #expect(ConfidenceMetrics.binIndex(0.999, bins: 20) == 19)
        #expect(ConfidenceMetrics.binIndex(1.0, bins: 20) == 19)
    }

    @Test func histogramCounts() {
        let h = ConfidenceMetrics.histogram([0.0, 0.04, 0.05, 0.5, 0.85, 0.86, 1.0])
        #expect(h.count == 20)
        var expected = [Int](repeating: 0, count: 20)
        expected[0] = 2; expected[1] = 1; expected[10] = 1; expected[17] = 2; expected[19] = 1
        #expect(h.map(\.count) == expected)
        #expect(h[17].lower == 0.85 && h[17].upper == 0.9)
        #expect(h[0].lower == 0 && h[19].upper == 1)
    }

    @Test func nearestRankPercentiles() {
        let p = ConfidenceMetrics.percentiles([1.0, 0.3, 0.5, 0.1, 0.9, 0.2, 0.7, 0.4, 0.8, 0.6])
        // n = 10: ranks ceil(p·10/100) = 1, 1, 3, 5, 8, 9, 10.
        #expect(p == Percentiles(p5: 0.1, p10: 0.1, p25: 0.3, p50: 0.5, p75: 0.8, p90: 0.9, p95: 1.0))
        let one = ConfidenceMetrics.percentiles([0.42])
        #expect(one.all.allSatisfy { $0.value == 0.42 })
        #expect(ConfidenceMetrics.percentiles([]).all.allSatisfy { $0.value == nil })
        // n = 3: p50 → rank 2, p25 → rank 1, p75 → rank 3.
        let three = ConfidenceMetrics.percentiles([0.2, 0.9, 0.4])
        #expect(three.p25 == 0.2 && three.p50 == 0.4 && three.p75 == 0.9)
    }

    @Test func levelsFollowSpecR6() {
        #expect(ConfidenceMetrics.level(0.86) == .high)
        #expect(ConfidenceMetrics.level(0.85) == .medium)
        #expect(ConfidenceMetrics.level(0.66) == .medium)
        #expect(ConfidenceMetrics.level(0.65) == .low)
        let l = ConfidenceMetrics.levels([0.86, 0.85, 0.66, 0.65, 0.2])
        #expect(l.high == LevelShare(words: 1, share: 0.2))
        #expect(l.medium == LevelShare(words: 2, share: 0.4))
        #expect(l.low == LevelShare(words: 2, share: 0.4))
        #expect(ConfidenceMetrics.levels([]).high.share == nil)
    }

    @Test func sanitisedClampsAndDropsNaN() {
        #expect(ConfidenceMetrics.sanitised(nil) == nil)
        #expect(ConfidenceMetrics.sanitised(.nan) == nil)
        #expect(ConfidenceMetrics.sanitised(1.2) == 1)
        #expect(ConfidenceMetrics.sanitised(-0.1) == 0)
        #expect(ConfidenceMetrics.sanitised(0.42) == 0.42)
    }

    @Test func matchingIsMultisetInReadingOrder() {
        let words = ["FISH", "and", "and", "and", "chips", "peas!", " "].map { BenchWord(text: $0, confidence: 0.5) }
        let m = ConfidenceMetrics.matchWords(words, groundTruth: "Fish and\nchips  and peas")
        #expect(m == [true, true, true, false, true, false, nil])
        // A word that normalises to two words needs both.
        let ligature = ConfidenceMetrics.matchWords([BenchWord(text: "\u{FB01}sh\u{00A0}pie", confidence: 0.9),
                                                     BenchWord(text: "pie", confidence: 0.9)],
                                                    groundTruth: "fish pie")
        #expect(ligature == [true, false])
    }

    @Test func calibrationBandsAndECE() {
        let samples: [(confidence: Double, correct: Bool)] = [
            (0.95, true), (0.92, false), (0.91, true), (0.15, false), (0.05, true),
        ]
        let c = ConfidenceMetrics.calibration(samples, wordsWithoutConfidence: 2)
        #expect(c.bins.count == 10)
        #expect(c.bins[9].words == 3 && c.bins[9].correct == 2)
        #expect(abs(c.bins[9].accuracy! - 2.0 / 3) < 1e-12)
        #expect(abs(c.bins[9].meanConfidence! - 2.78 / 3) < 1e-12)
        #expect(c.bins[1].words == 1 && c.bins[1].accuracy == 0)
        #expect(c.bins[0].words == 1 && c.bins[0].accuracy == 1)
        #expect(c.bins[5].words == 0 && c.bins[5].accuracy == nil && c.bins[5].meanConfidence == nil)
        // ECE = 3/5·|2/3 − 0.92667| + 1/5·|0 − 0.15| + 1/5·|1 − 0.05| = 0.156 + 0.03 + 0.19.
        #expect(abs(c.expectedCalibrationError! - 0.376) < 1e-12)
        #expect(c.words == 5 && c.correct == 3 && c.accuracy == 0.6)
        #expect(abs(c.meanConfidence! - 2.98 / 5) < 1e-12)
        #expect(c.wordsWithoutConfidence == 2)
        // Perfectly calibrated: one band at 0.5 with half right.
        let perfect = ConfidenceMetrics.calibration([(0.5, true), (0.5, false)])
        #expect(perfect.expectedCalibrationError == 0)
        #expect(ConfidenceMetrics.calibration([]).expectedCalibrationError == nil)
    }
}
