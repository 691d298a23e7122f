import ArgumentParser
import Foundation
import MenuScanKit

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the shard summaries of `scan --shard K/N` runs into one summary.json and summary.csv.",
        discussion: """
        Reads OUT/.menuscan/summary-shard-K-of-N.json from every OUT folder. Every shard 0..N-1 \
        must be there once, with the same settings. Exit codes: 0 every photo ok; 1 some not ok; \
        65 shard summaries missing or inconsistent; 73 the summary could not be written.
        """)

    @Argument(help: "Output folders of the shards (one shared folder, or one per shard).")
    var folders: [String]

    @Option(name: .long, help: "Where summary.json and summary.csv go (default: the first folder).")
    var out: String?

    func run() throws {
        var inputs: [(folder: URL, summary: RunSummary)] = []
        for folder in folders {
            let url = URL(fileURLWithPath: folder, isDirectory: true)
            for file in SummaryMerge.shardSummaries(in: url) {
                do {
                    inputs.append((url, try JSONDecoder().decode(RunSummary.self, from: Data(contentsOf: file))))
                } catch {
                    Self.fail("\(file.path) is not a shard summary: \(error)")
                    throw ExitCode(ExitCodes.dataError)
                }
            }
        }
        let target = URL(fileURLWithPath: out ?? folders[0], isDirectory: true)
        let merged: RunSummary
        do {
            merged = try SummaryMerge.merge(inputs, into: target)
        } catch {
            Self.fail(error.description)
            throw ExitCode(ExitCodes.dataError)
        }
        do {
            try merged.write(to: target)
        } catch {
            Self.fail("\(error.code) \(error.title): \(error.detail ?? "")")
            throw ExitCode(ExitCodes.cannotWrite)
        }
        let counts = PhotoStatus.allCases.map { "\($0.rawValue)=\(merged.counts[$0.rawValue] ?? 0)" }.joined(separator: " ")
        print("merged \(inputs.count) shards: \(merged.processed)/\(merged.photos) photos, \(counts) → \(target.path)/summary.json, summary.csv")
        let notOK = merged.processed - (merged.counts[PhotoStatus.ok.rawValue] ?? 0) - (merged.counts[PhotoStatus.partial.rawValue] ?? 0)
        if notOK > 0 || merged.processed < merged.photos { throw ExitCode(ExitCodes.somePhotosNotOK) }
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("menuscan merge: \(message)\n".utf8))
    }
}
