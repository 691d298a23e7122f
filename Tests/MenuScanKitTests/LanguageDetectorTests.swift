import Foundation
import Testing
@testable import MenuScanKit

@Suite("--lang auto: language detection and the second read", .serialized)
struct LanguageDetectorTests {
    static let detector = LanguageDetector(lexicon: try? AllergenLexicon.loadDefault())
    static let all: Set<String> = ["eng", "deu", "fra", "spa", "ita"]

    static func words(_ s: String) -> [String] { s.split(whereSeparator: { $0.isWhitespace }).map(String.init) }

    @Test("menus in each language score as that language; English stays English", arguments: [
        ("eng", "Grilled chicken with garlic butter and fresh herbs served with fries. Tomato soup of the day with bread and our homemade pesto"),
        ("deu", "Gebratene Forelle mit Mandelbutter und Salzkartoffeln. Schweineschnitzel vom Grill mit Pommes und Salat der Saison, dazu hausgemachte Soße"),
        ("fra", "Filet de saumon grillé avec sauce au beurre blanc et légumes du marché. Soupe à l'oignon gratinée au fromage, servie avec du pain maison"),
        ("spa", "Pollo asado con patatas y ensalada de la casa. Sopa de pescado con gambas y mejillones, servido con pan y alioli casero"),
        ("ita", "Spaghetti alla carbonara con guanciale e pecorino. Risotto ai funghi porcini con burro e parmigiano, filetto di manzo alla griglia"),
    ])
    func languages(_ expected: String, _ text: String) {
        let s = Self.detector.score(words: Self.words(text))
        let chosen = Self.detector.choose(s, installed: Self.all)
        #expect(chosen == (expected == "eng" ? nil : expected), "\(s.scores)")
    }

    @Test("an English read of German without umlauts still scores German; too few words stay English")
    func robust() {
        let noUmlauts = "Gebratene Forelle mit Mandelbutter und Salzkartoffeln vom Grill mit Pommes und Salat der Saison"
        #expect(Self.detector.choose(Self.detector.score(words: Self.words(noUmlauts)), installed: Self.all) == "deu")
        #expect(Self.detector.choose(Self.detector.score(words: ["Schnitzel", "mit", "Pommes"]), installed: Self.all) == nil)
        // A language that is not installed is never chosen.
        let s = Self.detector.score(words: Self.words(noUmlauts))
        #expect(Self.detector.choose(s, installed: ["eng", "fra"]) == nil)
    }

    @Test("lexicon words count for one language only")
    func lexiconWords() {
        let de = Self.detector.lexiconWords["deu"] ?? []
        #expect(de.contains("erdnuss") || de.contains("erdnusse"))
        #expect(!(Self.detector.lexiconWords["deu"] ?? []).contains("mit"))   // a stop word, counted once
        for (a, b) in [("deu", "eng"), ("fra", "spa"), ("ita", "spa")] {
            #expect((Self.detector.lexiconWords[a] ?? []).isDisjoint(with: Self.detector.lexiconWords[b] ?? []))
        }
    }

    /// A German menu page rendered through poppler, as a PNG photo.
    static func germanPhoto(in dir: URL) throws -> URL {
        let lines = ["VORSPEISEN", "Tomatensuppe mit frischem Basilikum und Sahne 4,50",
                     "Gebratene Champignons mit Knoblauch und Kräuterbutter 6,80",
                     "HAUPTGERICHTE", "Schweineschnitzel mit Pommes und Salat der Saison 12,90",
                     "Forelle Müllerin mit Mandelbutter und Salzkartoffeln 16,50",
                     "Käsespätzle mit Röstzwiebeln und grünem Salat 11,20"]
        let pdf = dir.appendingPathComponent("de.pdf")
        try Data(TestPDF(pages: [TestPDF.textPage(lines)]).bytes()).write(to: pdf)
        let pix = try #require(try PDFDocument(fileAt: pdf).page(1)?.render(dpi: 300))
        let png = dir.appendingPathComponent("speisekarte.png")
        try Data(try #require(pix.encoded(as: .png))).write(to: png)
        return png
    }

    @Test("auto reads a German menu again with deu+eng and records the scores; an explicit --lang wins")
    func secondRead() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanup(dir) }
        let photo = try Self.germanPhoto(in: dir)
        var auto = ScanSettings()
        auto.ocr.language = OCRSettings.auto
        let processor = try PhotoProcessor(settings: auto)
        let result = processor.process(fileAt: photo, displayPath: "speisekarte.png")
        let ocr = try #require(result.ocr)
        let choice = try #require(ocr.languageDetection)
        #expect(choice.reread && choice.chosen == "deu+eng" && ocr.language == "deu+eng")
        // The default second read is the whole page on deu+eng.
        #expect(choice.englishLines == nil)
        #expect((choice.first.scores["deu"] ?? 0) > (choice.first.scores["eng"] ?? 0))
        #expect(result.timings["language"] != nil)
        let text = ocr.page.text
        #expect(text.contains("Käsespätzle") || text.contains("Röstzwiebeln") || text.contains("Müllerin"), "\(text)")
        // English menu: no second read.
        let english = processor.process(fileAt: TestSupport.samples.appendingPathComponent("menu-clean.png"), displayPath: "menu-clean.png")
        #expect(english.ocr?.languageDetection?.reread == false && english.ocr?.language == "eng")
        // Explicit eng: no detection at all.
        let explicit = try PhotoProcessor(settings: ScanSettings()).process(fileAt: photo, displayPath: "speisekarte.png")
        #expect(explicit.ocr?.languageDetection == nil && explicit.ocr?.language == "eng")
        // The two measured alternatives (off by default): deu alone merged per
        // line with the English read, and the English read's lines read again.
        for mode in [LanguageReread.merge, .lines] {
            var other = auto
            other.languageReread = mode
            let whole = try PhotoProcessor(settings: other).process(fileAt: photo, displayPath: "speisekarte.png")
            let wholeChoice = try #require(whole.ocr?.languageDetection)
            #expect(wholeChoice.reread && wholeChoice.chosen == "deu+eng" && wholeChoice.englishLines != nil, "\(mode)")
            let wholeText = whole.ocr?.page.text ?? ""
            #expect(wholeText.contains("Käsespätzle") || wholeText.contains("Röstzwiebeln") || wholeText.contains("Müllerin"), "\(mode): \(wholeText)")
        }
    }
}
