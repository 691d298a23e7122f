/// The page's text for people (NAME.txt): Tesseract's lines as read, without the dot
/// leaders between a dish and its price. Tesseract reads a row of leader dots as dots
/// ("..........") or, at low confidence, as a string of the letters dots resemble
/// ("cccvsccccevesausnusn", "SOOOSSOSSSSSHSSHHSS", "......0000000008"); neither is text
/// anyone printed, and a transcription leaves both out. The JSON keeps every word as read.
public enum ReadableText {
    /// Characters of a leader as printed (the structure's own set).
    static let dots = PageLayout.leaderChars
    /// What Tesseract reads a leader's dots as when it takes them for letters: round
    /// small letters and digits, and the punctuation around them.
    static let dotLike: Set<Character> = dots.union([",", ":", ";", "-", "+", "'", "`", "~", "*", "¢", "°",
                                                     "c", "e", "s", "o", "u", "n", "a", "v", "r", "C", "O", "S", "H", "0", "8"])
    /// A run of this many dots or more is a leader (an ellipsis, "...." included, is kept).
    static let dotRun = 6
    /// A run of this many dot-like characters is a leader in a word Tesseract doubted
    /// (below `doubtedConfidence`): long enough that no word of the menu languages is made
    /// only of them ("season", "successes" are shorter).
    static let letterRun = 10
    static let doubtedConfidence = 0.3

    /// The page as plain text: one line per line, a blank line between blocks; lines and
    /// blocks that held only leaders are left out.
    public static func text(of page: OCRPage) -> String {
        text(blocks: page.blocks.map { $0.lines.map { $0.words.map { ($0.text, $0.confidence) } } })
    }

    /// The same from blocks of lines of words as text and confidence (a scan's JSON as the
    /// bench reads it).
    static func text(blocks: [[[(text: String, confidence: Double?)]]]) -> String {
        blocks.map { lines in
            lines.map { words in words.map { cleaned(text: $0.text, confidence: $0.confidence) }.filter { !$0.isEmpty }.joined(separator: " ") }
                .filter { !$0.isEmpty }.joined(separator: "\n")
        }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    static func cleaned(_ word: OCRWord) -> String { cleaned(text: word.text, confidence: word.confidence) }

    /// A word without its leader runs (a run inside a word leaves a space: "Pilsner,.......3.50"
    /// → "Pilsner 3.50"); "" when the word was a leader only.
    ///
    /// In every word, `dotRun` dots in a row are a leader. In a word Tesseract doubted, so is
    /// the whole word when it is made of dot-like characters (`isLeaderWord`), or a run of
    /// dot-like characters `letterRun` long that starts with dots where the word's letters end
    /// ("Spdtlese..ccccccceccsecees": from the first dot), or a run of letters of at most
    /// `monotony` kinds that follows a word ("Classi0icccccoccsccs").
    static func cleaned(text: String, confidence: Double?) -> String {
        let doubted = (confidence ?? 1) < doubtedConfidence
        let chars = Array(text)
        if doubted && isLeaderWord(chars) { return "" }
        var keep = [Bool](repeating: true, count: chars.count)
        var i = 0
        while i < chars.count {
            guard dotLike.contains(chars[i]) else { i += 1; continue }
            var j = i
            while j < chars.count, dotLike.contains(chars[j]) { j += 1 }
            for k in leaderRange(chars, i, j, doubted: doubted) { keep[k] = false }
            i = j
        }
        guard keep.contains(false) else { return text }
        var out = ""
        var gap = false
        for (c, k) in zip(chars, keep) {
            if k {
                if gap && !out.isEmpty { out.append(" ") }
                out.append(c); gap = false
            } else {
                gap = true
            }
        }
        return out
    }

    /// A doubted word that is a leader as a whole: `letterRun` characters at least, all but
    /// one of them dot-like, letters only or with dots in it ("SOOOSSOSSSSSHSSHHSSSSHSOSSSOOHOOSOSE").
    private static func isLeaderWord(_ chars: [Character]) -> Bool {
        guard chars.count >= letterRun, chars.filter({ !dotLike.contains($0) }).count <= 1 else { return false }
        return chars.allSatisfy(\.isLetter) || chars.filter(dots.contains).count >= 2
    }

    /// Kinds of letter a leader read as letters is made of, at most ("ccccoccsccsscccces": c, o, s, e).
    static let monotony = 5

    /// The characters of the dot-like run `chars[i..<j]` that are leader (empty when none).
    private static func leaderRange(_ chars: [Character], _ i: Int, _ j: Int, doubted: Bool) -> [Int] {
        if doubted {
            // Digits alone are no leader ("o000000000000000" on a card slip): a run of digits
            // and punctuation needs dots in it.
            func dotted(_ r: Range<Int>) -> Bool { r.lazy.filter { dots.contains(chars[$0]) }.count >= 2 }
            let lettersOnly = chars[i..<j].allSatisfy(\.isLetter)
            // From the first character that is not a letter: a word's last letters ("Pilsner"'s
            // "sner") run into its leader.
            if let s = (i..<j).first(where: { !chars[$0].isLetter }), j - s >= letterRun, dotted(s..<j) { return Array(s..<j) }
            if j - i >= letterRun + 2, lettersOnly, Set(chars[i..<j]).count <= monotony {
                return Array(i..<j)
            }
        }
        // Dots `dotRun` in a row, wherever they are.
        var out: [Int] = []
        var k = i
        while k < j {
            guard dots.contains(chars[k]) else { k += 1; continue }
            var e = k
            while e < j, dots.contains(chars[e]) { e += 1 }
            if e - k >= dotRun { out += Array(k..<e) }
            k = e
        }
        return out
    }
}
