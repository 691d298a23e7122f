import ArgumentParser
import Foundation
import MenuScanKit

/// `menuscan classify`: the menu + allergen classifier on plain text.
struct ClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Find menu items, allergens and dietary labels in plain text.",
        discussion: """
        Reads --text, a text file, or standard input, and prints the items JSON
        (the same "menu" object a photo's JSON holds). With --per-line every
        input line is one item. --allergens or --profile add a safe / caution /
        unsafe verdict per item.
        """)

    @Option(name: .long, help: "The text to classify.")
    var text: String?

    @Argument(help: "A UTF-8 text file to classify ('-' or nothing: standard input).")
    var file: String?

    @Option(name: .long, help: "An OCR page as JSON (the OCR stage's OCRPage) instead of text: runs the photo path.")
    var page: String?

    @Flag(name: .long, help: ArgumentHelp("With --page: print each line's text, box, run, role features and role as JSON (training data for Benchmarks/train_roles.py).", visibility: .hidden))
    var dumpLines = false

    @Option(name: .long, help: ArgumentHelp("With --page: run the structure stage (lines, roles, items) N times and print the mean milliseconds per run (Benchmarks/structure_time.sh).", visibility: .hidden))
    var timeStructure: Int?

    @Flag(name: .long, help: "Treat every input line as one item.")
    var perLine = false

    @OptionGroup var profileOptions: ProfileOptions

    @Option(name: .long, help: ArgumentHelp("Benchmark: classify the input N times and print the mean milliseconds a run to standard error.", visibility: .hidden))
    var repeatCount: Int = 1

    func validate() throws {
        if [text != nil, file != nil, page != nil].filter({ $0 }).count > 1 {
            throw ValidationError("Give one of --text, --page or a file.")
        }
        if page != nil && perLine { throw ValidationError("--per-line applies to text, not to --page.") }
    }

    func run() throws {
        do {
            let prof = try profileOptions.resolve()
            let analyzer = MenuAnalyzer(lexicon: try AllergenLexicon.loadDefault())
            if let page {
                guard let data = FileManager.default.contents(atPath: page),
                      let ocr = try? JSONDecoder().decode(OCRPage.self, from: data) else {
                    throw MenuScanError.fileAccess.with(detail: "\((page as NSString).lastPathComponent): not an OCR page JSON")
                }
                if let n = timeStructure, n > 0 {
                    _ = MenuAnalyzer.structureOnly(page: ocr)  // loads the role model once
                    // CPU time of this process (the machine may be shared), and wall time.
                    func cpu() -> Double {
                        var t = timespec()
                        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
                        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
                    }
                    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpu()
                    var items = 0
                    for _ in 0..<n { items = MenuAnalyzer.structureOnly(page: ocr) }
                    let cpuMs = (cpu() - cpuStart) / Double(n)
                    let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(n)
                    print(String(format: "%.3f ms CPU per run (%.3f ms wall), %d lines, %d items", cpuMs, ms, ocr.lines.count, items))
                    return
                }
                if dumpLines {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    FileHandle.standardOutput.write(try encoder.encode(MenuAnalyzer.dumpLines(page: ocr)))
                    FileHandle.standardOutput.write(Data("\n".utf8))
                    return
                }
                try write(timed { analyzer.analyze(page: ocr, profile: prof) })
                return
            }
            let input: String
            if let text {
                input = text
            } else if let file, file != "-" {
                guard let data = FileManager.default.contents(atPath: file), let s = String(data: data, encoding: .utf8) else {
                    throw MenuScanError.fileAccess.with(detail: "\((file as NSString).lastPathComponent): cannot be read as UTF-8 text")
                }
                input = s
            } else {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                input = String(decoding: data, as: UTF8.self)
            }
            try write(timed { analyzer.analyze(text: input, perLine: perLine, profile: prof) })
        } catch let error as MenuScanError {
            FileHandle.standardError.write(Data("error: \(error.description)\n  \(error.recovery)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// Runs `work` --repeat-count times (the lexicon is loaded once, before) and reports the mean time.
    private func timed(_ work: () -> MenuAnalysis) -> MenuAnalysis {
        // CPU time of this process as well as wall time: the machine may be shared.
        func cpuMilliseconds() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
        }
        let clock = ContinuousClock()
        let start = clock.now, cpuStart = cpuMilliseconds()
        var result = work()
        for _ in 1..<max(1, repeatCount) { result = work() }
        if repeatCount > 1 {
            let d = (clock.now - start).components
            let ms = Double(d.seconds) * 1000 + Double(d.attoseconds) / 1e15
            let cpu = cpuMilliseconds() - cpuStart
            FileHandle.standardError.write(Data(String(format: "classify: %d runs, %.3f ms a run, %.3f ms CPU a run\n",
                                                       repeatCount, ms / Double(repeatCount), cpu / Double(repeatCount)).utf8))
        }
        return result
    }

    private func write(_ analysis: MenuAnalysis) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(analysis))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
