import Foundation

/// summary.csv: one row per photo, metadata only (R12). RFC 4180 quoting.
public enum SummaryCSV {
    public static let columns = ["path", "output", "status", "codes", "confidence", "characters",
                                 "seconds", "decode_seconds", "ocr_seconds", "output_seconds", "items", "allergens"]

    public static var header: String { columns.joined(separator: ",") + "\r\n" }

    public static func render(_ records: [PhotoRecord]) -> String {
        records.reduce(into: header) { $0 += row($1) }
    }

    public static func row(_ r: PhotoRecord) -> String {
        let fields: [String] = [
            r.path, r.output, r.status.rawValue, r.codes.joined(separator: " "),
            r.meanConfidence.map { String(format: "%.4f", $0) } ?? "",
            r.characters.map(String.init) ?? "",
            String(format: "%.4f", r.seconds),
            r.timings?["decode"].map { String(format: "%.4f", $0) } ?? "",
            r.timings?["ocr"].map { String(format: "%.4f", $0) } ?? "",
            r.timings?["output"].map { String(format: "%.4f", $0) } ?? "",
            r.items.map(String.init) ?? "",
            r.allergens.map(String.init) ?? "",
        ]
        return fields.map(quote).joined(separator: ",") + "\r\n"
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `menuscan merge`: one summary from the shard summaries of one or more
/// output folders.
public enum SummaryMerge {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The shard summaries found under `folder` (`.menuscan/summary-shard-*.json`).
    public static func shardSummaries(in folder: URL) -> [URL] {
        let dir = Journal.folder(in: folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasPrefix("summary-shard-") && $0.hasSuffix(".json") }.sorted()
            .map { dir.appendingPathComponent($0) }
    }

    /// Merges shard summaries (each from the folder it was found in) into a
    /// summary for `output`. Every shard 0..<N must be there exactly once,
    /// with the same N and settings, and no photo may appear twice.
    public static func merge(_ inputs: [(folder: URL, summary: RunSummary)], into output: URL) throws(Failure) -> RunSummary {
        guard let first = inputs.first else { throw Failure(description: "no shard summaries found (.menuscan/summary-shard-*.json)") }
        var seenShards: [Int: URL] = [:]
        var count: Int?
        for (folder, s) in inputs {
            guard let text = s.shard, let shard = Shard(parsing: text) else {
                throw Failure(description: "\(folder.path): a summary without a shard")
            }
            if let count, count != shard.count {
                throw Failure(description: "shard counts differ: \(count) and \(shard.count)")
            }
            count = shard.count
            if let other = seenShards[shard.index] {
                throw Failure(description: "shard \(shard) appears twice (\(other.path) and \(folder.path))")
            }
            seenShards[shard.index] = folder
            guard s.settings == first.summary.settings else {
                throw Failure(description: "shard \(shard) was run with other settings than shard \(first.summary.shard ?? "?")")
            }
        }
        let n = count ?? 0
        let missing = (0..<n).filter { seenShards[$0] == nil }
        guard missing.isEmpty else {
            throw Failure(description: "missing shard(s) \(missing.map { "\($0)/\(n)" }.joined(separator: ", "))")
        }
        var records: [PhotoRecord] = []
        var paths = Set<String>()
        for (folder, s) in inputs {
            for var r in s.files {
                guard paths.insert(r.path).inserted else { throw Failure(description: "\(r.path) is in two shards") }
                r.output = relocate(r.output, from: folder, to: output)
                records.append(r)
            }
        }
        records.sort { $0.path < $1.path }
        let fatal = inputs.lazy.compactMap(\.summary.fatal).first
        return RunSummary(records: records, total: inputs.reduce(0) { $0 + $1.summary.photos },
                          wallSeconds: inputs.map(\.summary.wallSeconds).max() ?? 0,
                          settings: first.summary.settings, jobs: inputs.reduce(0) { $0 + $1.summary.jobs },
                          fatal: fatal, reused: inputs.reduce(0) { $0 + ($1.summary.reused ?? 0) },
                          interrupted: inputs.contains { $0.summary.interrupted == true }, shard: nil,
                          peakRSSBytes: inputs.compactMap(\.summary.peakRSSBytes).max())
    }

    /// An output path relative to `folder`, made relative to `output`
    /// (or absolute when `folder` is not inside it).
    static func relocate(_ path: String, from folder: URL, to output: URL) -> String {
        let f = folder.standardizedFileURL.path, o = output.standardizedFileURL.path
        if f == o { return path }
        if f.hasPrefix(o + "/") { return String(f.dropFirst(o.count + 1)) + "/" + path }
        return f + "/" + path
    }
}
