import Testing
@testable import MenuScanKit

@Suite("Rules: R4 failure threshold")
struct RulesTests {
    func page(_ words: [(String, Double?)]) -> OCRPage {
        let w = words.map { OCRWord(text: $0.0, confidence: $0.1, box: Box(x: 0, y: 0, width: 10, height: 10)) }
        return OCRPage(blocks: [OCRBlock(box: Box(x: 0, y: 0, width: 100, height: 10),
                                         lines: [OCRLine(box: Box(x: 0, y: 0, width: 100, height: 10), words: w)])])
    }

    @Test("9 characters fail, 10 pass; whitespace does not count")
    func characterBoundary() {
        let rules = ThresholdRules()
        let nine = rules.evaluate(page([("abcd", 0.9), ("efghi", 0.9)]))
        #expect(nine.status == .failed)
        #expect(nine.message?.code == "MSG-OCR-001")
        #expect(nine.failedRule == "characters")
        #expect(rules.evaluate(page([("abcde", 0.9), ("fghij", 0.9)])).status == .ok)
        #expect(rules.evaluate(page([("abcd efgh", 0.9)])).status == .failed)  // 8 + a space
        #expect(rules.evaluate(page([])).status == .failed)
    }

    @Test("every word below 0.30 fails; one word at exactly 0.30 passes")
    func confidenceBoundary() {
        let rules = ThresholdRules()
        let low = rules.evaluate(page([("Margherita", 0.29), ("pizza", 0.29)]))
        #expect(low.status == .failed)
        #expect(low.failedRule == "confidence")
        #expect(rules.evaluate(page([("Margherita", 0.30), ("pizza", 0.1)])).status == .ok)
        #expect(rules.evaluate(page([("Margherita", 0.2999), ("pizza", 0.0)])).status == .failed)
    }

    @Test("characters of words below the confidence threshold are not counted as recognised")
    func lowConfidenceCharactersDoNotCount() {
        let rules = ThresholdRules()
        // 6 confident characters + 12 in noise words: fails on characters.
        let noisy = rules.evaluate(page([("SALADS", 0.5), ("errrrrrrrrrr", 0.1)]))
        #expect(noisy.status == .failed)
        #expect(noisy.failedRule == "characters")
        #expect(rules.evaluate(page([("SALADS", 0.5), ("soup", 0.30), ("errr", 0.1)])).status == .ok)
    }

    @Test("words without a confidence cannot vouch for the page")
    func missingConfidence() {
        #expect(ThresholdRules().evaluate(page([("Margherita", nil), ("pizza", nil)])).status == .failed)
        #expect(ThresholdRules().evaluate(page([("Margherita", nil), ("pizza", 0.5)])).status == .failed)  // 5 counted
        #expect(ThresholdRules().evaluate(page([("Margherita", nil), ("Quattro", 0.5), ("pizza", 0.5)])).status == .ok)
    }

    @Test("the thresholds are configurable")
    func configurable() {
        let strict = ThresholdRules(minimumCharacters: 20, minimumConfidence: 0.9)
        #expect(strict.evaluate(page([("Margherita", 0.95), ("pizza", 0.95)])).status == .failed)
        #expect(strict.evaluate(page([("Margherita", 0.95), ("pizza", 0.95), ("napoli", 0.5)])).status == .failed)  // napoli < 0.9
        #expect(strict.evaluate(page([("Margherita", 0.95), ("pizza", 0.95), ("napoli", 0.9)])).status == .ok)
    }
}

@Suite("Errors: R9 model and message library")
struct ErrorModelTests {
    static let library: [MenuScanError] = [
        .ocrFailed, .qualityTooLow, .processing, .storageFull, .multipleMenus, .retry,
        .unreadableImage, .imageTooLarge, .fileAccess, .modelUnavailable,
        .lowConfidenceResults, .potentialCrossContamination,
    ]

    @Test("every message has a unique code, a title, a message and a recovery suggestion")
    func complete() {
        #expect(Set(Self.library.map(\.code)).count == Self.library.count)
        for e in Self.library {
            #expect(!e.title.isEmpty && !e.message.isEmpty && !e.recovery.isEmpty, "\(e.code)")
        }
    }

    @Test("the seeds' wording is kept")
    func wording() {
        #expect(MenuScanError.ocrFailed.title == "Unable to Read Menu Text")
        #expect(MenuScanError.qualityTooLow.title == "Photo Quality Too Low")
        #expect(MenuScanError.storageFull.message == "Unable to save menu. Your device storage is full. Free up space and try again.")
        #expect(MenuScanError.processing.message == "Unable to analyze this menu. Please try again or contact support.")
        #expect(MenuScanError.lowConfidenceResults.severity == .high)
        #expect(MenuScanError.potentialCrossContamination.severity == .critical)
        #expect(MenuScanError.storageFull.recoverable == false)
    }

    @Test("details attach without changing the code; severities order")
    func details() {
        let e = MenuScanError.ocrFailed.with(detail: "3 characters")
        #expect(e.code == "MSG-OCR-001" && e.detail == "3 characters")
        #expect(MenuScanError.ocrFailed.detail == nil)
        #expect(Severity.low < .medium && Severity.medium < .high && Severity.high < .critical)
        let m = ResultMessage(e)
        #expect(m.code == e.code && m.severity == e.severity && m.recovery == e.recovery)
    }
}
