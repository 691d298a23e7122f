import Testing
@testable import MenuScanKit

/// NAME.txt leaves out the dot leaders Tesseract read, as dots or as letters; every other
/// word stays as read.
@Suite struct ReadableTextTests {
    func word(_ text: String, _ confidence: Double? = 0.9) -> OCRWord {
        OCRWord(text: text, confidence: confidence, box: Box(x: 0, y: 0, width: 10, height: 10))
    }

    @Test func leadersReadAsLettersGoInDoubtedWords() {
        // Whole words made of a leader (read at confidence 0 on a festival menu).
        #expect(ReadableText.cleaned(word("SOOOSSOSSSSSHSSHHSSSSHSOSSSOOHOOSOSE", 0)) == "")
        #expect(ReadableText.cleaned(word("cccvsccccevesausnusn", 0)) == "")
        #expect(ReadableText.cleaned(word("......0000000008", 0)) == "")
        #expect(ReadableText.cleaned(word(".....+++00000000¢", 0.1)) == "")
        // A leader glued to a name or a price: the name and the price stay.
        #expect(ReadableText.cleaned(word("Pilsner,.......0000000003-50", 0)) == "Pilsner 3-50")
        #expect(ReadableText.cleaned(word("Spdtlese..ccccccceccsecees", 0)) == "Spdtlese")
        #expect(ReadableText.cleaned(word("Classi0iccccccccoccsccsscccces", 0)) == "Classi0i")
        #expect(ReadableText.cleaned(word("Punch,,.....000000000e", 0)) == "Punch")
    }

    @Test func wordsThatLookLikeLeadersStay() {
        // Numbers on a card slip are read with doubt too; digits alone are no leader.
        #expect(ReadableText.cleaned(word("o000000000000000", 0.2)) == "o000000000000000")
        // Ordinary words made of round letters, doubted or not.
        for w in ["season", "successes", "Cassoulet", "consensus"] {
            #expect(ReadableText.cleaned(word(w, 0.1)) == w)
            #expect(ReadableText.cleaned(word(w, nil)) == w)
        }
        // The same letters read with confidence are words, however long.
        #expect(ReadableText.cleaned(word("cccvsccccevesausnusn", 0.9)) == "cccvsccccevesausnusn")
        // An ellipsis, four dots included, is punctuation.
        #expect(ReadableText.cleaned(word("from....It’s", 0.9)) == "from....It’s")
        #expect(ReadableText.cleaned(word("Wait...", 0.2)) == "Wait...")
    }

    @Test func dotLeadersGoAtAnyConfidence() {
        #expect(ReadableText.cleaned(word("..........", 0.95)) == "")
        #expect(ReadableText.cleaned(word("Soup.........", 0.95)) == "Soup")
        #expect(ReadableText.cleaned(word("........12.50", nil)) == "12.50")
    }

    @Test func linesAndBlocksOfLeadersOnlyAreLeftOut() {
        let box = Box(x: 0, y: 0, width: 100, height: 10)
        let page = OCRPage(blocks: [
            OCRBlock(box: box, lines: [
                OCRLine(box: box, words: [word("Soup"), word("..........", 0.9), word("4.50")]),
                OCRLine(box: box, words: [word("cccvsccccevesausnusn", 0)]),
                OCRLine(box: box, words: [word("Bread"), word("2.00")]),
            ]),
            OCRBlock(box: box, lines: [OCRLine(box: box, words: [word("...........", 0.5)])]),
            OCRBlock(box: box, lines: [OCRLine(box: box, words: [word("Thank"), word("you")])]),
        ])
        #expect(ReadableText.text(of: page) == "Soup 4.50\nBread 2.00\n\nThank you")
        // Nothing to leave out: the plain text as before.
        let plain = OCRPage(blocks: [OCRBlock(box: box, lines: [OCRLine(box: box, words: [word("Bread"), word("2.00")])])])
        #expect(ReadableText.text(of: plain) == plain.text)
    }
}
