import Foundation
import Testing
@testable import MenuScanKit

/// Checks the bench's accuracy figures against `shared/eval/tools/score.py` on
/// the same files. Runs only when `Benchmarks/check-bench-agreement.sh` sets
/// MENUSCAN_AGREEMENT_MANIFEST (it needs Python, rapidfuzz and shared/eval);
/// a normal `swift test` skips it.
@Suite struct BenchScoreAgreementTests {
    struct ManifestEntry: Decodable {
        var set: String
        var gt: String
        var pred: String
        var score: String
    }

    struct ScorePy: Decodable {
        struct Page: Decodable { var name: String; var cer: Double; var wer: Double }
        var pages: Int
        var cer: Double
        var wer: Double
        var cer_mean: Double
        var wer_mean: Double
        var word_recall: Double
        var word_precision: Double
        var per_page: [Page]
    }

    static let manifest = ProcessInfo.processInfo.environment["MENUSCAN_AGREEMENT_MANIFEST"]

    @Test(.enabled(if: manifest != nil, "needs MENUSCAN_AGREEMENT_MANIFEST: run Benchmarks/check-bench-agreement.sh"))
    func benchAgreesWithScorePy() throws {
        let entries = try JSONDecoder().decode([ManifestEntry].self,
                                               from: Data(contentsOf: URL(fileURLWithPath: Self.manifest!)))
        var results: [[String: Any]] = []
        for entry in entries {
            let py = try JSONDecoder().decode(ScorePy.self, from: Data(contentsOf: URL(fileURLWithPath: entry.score)))
            let photos = py.per_page.map { page -> BenchPhoto in
                let truth = read("\(entry.gt)/\(page.name).gt.txt") ?? ""
                let text = read("\(entry.pred)/\(page.name).txt") ?? ""
                return BenchPhoto(path: page.name, status: "ok", text: text, groundTruth: truth)
            }
            let accuracy = try #require(BenchReport.build(label: entry.set, photos: photos, wallSeconds: 1,
                                                          peakRSSBytes: nil).accuracy)
            #expect(accuracy.photos == py.pages)
            var maxCER = 0.0, maxWER = 0.0, differing: [String] = []
            for (mine, theirs) in zip(accuracy.perPhoto, py.per_page) {
                let dc = abs(mine.cer - theirs.cer), dw = abs(mine.wer - theirs.wer)
                maxCER = max(maxCER, dc); maxWER = max(maxWER, dw)
                if dc > 1e-12 || dw > 1e-12 { differing.append(theirs.name) }
            }
            #expect(differing.isEmpty, "\(entry.set): per-page CER/WER differ on \(differing)")
            // score.py rounds its totals to 4 decimals.
            let pairs: [(String, Double, Double)] = [
                ("cer", accuracy.cer, py.cer), ("wer", accuracy.wer, py.wer),
                ("cer_mean", accuracy.cerMean, py.cer_mean), ("wer_mean", accuracy.werMean, py.wer_mean),
                ("word_recall", accuracy.wordRecall, py.word_recall),
                ("word_precision", accuracy.wordPrecision, py.word_precision),
            ]
            var totals: [String: [Double]] = [:]
            for (name, mine, theirs) in pairs {
                #expect(abs(mine - theirs) <= 0.00005 + 1e-12, "\(entry.set) \(name): bench \(mine), score.py \(theirs)")
                totals[name] = [mine, theirs]
            }
            results.append(["set": entry.set, "pages": accuracy.photos, "maxPageCERDifference": maxCER,
                            "maxPageWERDifference": maxWER, "pagesDiffering": differing.count,
                            "totals": totals, "counts": try JSONSerialization.jsonObject(
                                with: JSONEncoder().encode(accuracy.counts))])
        }
        if let out = ProcessInfo.processInfo.environment["MENUSCAN_AGREEMENT_OUT"] {
            try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
                .write(to: URL(fileURLWithPath: out))
        }
    }

    /// A file's text as score.py reads it (UTF-8, invalid bytes replaced), nil when absent.
    func read(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }
}
