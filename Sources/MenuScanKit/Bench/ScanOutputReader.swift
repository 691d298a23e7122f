import Foundation

/// Reads the per-photo JSON files of an earlier `menuscan scan --out DIR`
/// back into `BenchPhoto`s, so a bench can be computed without re-running OCR.
public enum ScanOutputReader {
    /// File names under the output folder that are not per-photo results.
    public static let skippedFileNames: Set<String> = ["summary.json", "bench.json"]

    /// Every `*.json` under `directory` (recursively; hidden files and
    /// `skippedFileNames` left out) that holds a per-photo result, sorted by
    /// relative path. A JSON file without a `source` object is not a photo
    /// result and is skipped. Ground truth is `source.path` with its extension
    /// replaced by `.gt.txt`, resolved against `groundTruthRoot` when given
    /// (relative to the working directory otherwise); nil when absent.
    /// Throws `MenuScanError.fileAccess` for an unreadable file and
    /// `MenuScanError.processing` for malformed JSON or an unknown schema version.
    public static func read(directory: URL, groundTruthRoot: URL?) throws -> [BenchPhoto] {
        let fm = FileManager.default
        guard let enumerator = fm.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey],
                                             options: [.skipsHiddenFiles]) else {
            throw MenuScanError.fileAccess.with(detail: "cannot list \(directory.path)")
        }
        var files: [URL] = []
        for case let url as URL in enumerator
        where url.pathExtension.lowercased() == "json" && !skippedFileNames.contains(url.lastPathComponent) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(url) }
        }
        files.sort { $0.path < $1.path }

        var photos: [BenchPhoto] = []
        for file in files {
            let data: Data
            do { data = try Data(contentsOf: file) } catch {
                throw MenuScanError.fileAccess.with(detail: "\(file.path): \(error.localizedDescription)")
            }
            if let photo = try photo(from: data, file: file.path, groundTruthRoot: groundTruthRoot) {
                photos.append(photo)
            }
        }
        return photos
    }

    /// One per-photo result; nil when the JSON is not one (no `source`).
    public static func photo(from data: Data, file: String, groundTruthRoot: URL?) throws -> BenchPhoto? {
        let result: ScanResultFile
        do { result = try JSONDecoder().decode(ScanResultFile.self, from: data) } catch {
            throw MenuScanError.processing.with(detail: "\(file): not a MenuScan result (\(error))")
        }
        guard let source = result.source else { return nil }
        guard result.schemaVersion == 1 else {
            throw MenuScanError.processing.with(
                detail: "\(file): schemaVersion \(result.schemaVersion.map(String.init) ?? "missing"), expected 1")
        }
        let blocks = result.ocr?.blocks ?? []
        let words = blocks.flatMap { $0.lines.flatMap(\.words) }.map { BenchWord(text: $0.text, confidence: $0.confidence) }
        // The text as NAME.txt holds it.
        let text = ReadableText.text(blocks: blocks.map { $0.lines.map { $0.words.map { ($0.text, $0.confidence) } } })
        var photo = BenchPhoto(path: source.path, status: result.status, messageCodes: (result.messages ?? []).map(\.code),
                               words: words, text: text,
                               groundTruth: groundTruth(for: source.path, root: groundTruthRoot),
                               stageSeconds: result.timings?.values ?? [:])
        photo.readConfidence = result.readQuality?.readConfidence
        return photo
    }

    /// The photo's path with its extension replaced by `.gt.txt`.
    public static func groundTruthPath(for photoPath: String) -> String {
        let url = URL(fileURLWithPath: photoPath)
        let name = url.deletingPathExtension().lastPathComponent + ".gt.txt"
        let directory = (photoPath as NSString).deletingLastPathComponent
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }

    /// Contents of the photo's ground truth, nil when there is no such file.
    /// Invalid UTF-8 is replaced by U+FFFD (as score.py's `errors="replace"`).
    public static func groundTruth(for photoPath: String, root: URL?) -> String? {
        let path = groundTruthPath(for: photoPath)
        let url: URL
        if let root, !path.hasPrefix("/") {
            url = root.appendingPathComponent(path)
        } else {
            url = URL(fileURLWithPath: path)
        }
        guard let data = try? Data(contentsOf: url) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The parts of a per-photo scan result the bench reads.
private struct ScanResultFile: Decodable {
    struct Source: Decodable { var path: String }
    struct Message: Decodable { var code: String }
    struct Word: Decodable { var text: String; var confidence: Double? }
    struct Line: Decodable { var words: [Word] }
    struct Block: Decodable { var lines: [Line] }
    struct OCR: Decodable { var blocks: [Block] }
    struct ReadQuality: Decodable { var readConfidence: Double? }

    var schemaVersion: Int?
    var source: Source?
    var status: String
    var messages: [Message]?
    var ocr: OCR?
    var timings: Timings?
    var readQuality: ReadQuality?

    enum CodingKeys: String, CodingKey { case schemaVersion, source, status, messages, ocr, timings, readQuality }

    init(from decoder: Decoder) throws {
        // JSON that is not an object with a `source` is not a photo result:
        // leave everything empty and let the reader skip it.
        guard let c = try? decoder.container(keyedBy: CodingKeys.self),
              let source = try c.decodeIfPresent(Source.self, forKey: .source) else {
            status = ""
            return
        }
        self.source = source
        schemaVersion = try c.decodeIfPresent(Int.self, forKey: .schemaVersion)
        status = try c.decode(String.self, forKey: .status)
        messages = try c.decodeIfPresent([Message].self, forKey: .messages)
        ocr = try c.decodeIfPresent(OCR.self, forKey: .ocr)
        timings = try c.decodeIfPresent(Timings.self, forKey: .timings)
        readQuality = try? c.decodeIfPresent(ReadQuality.self, forKey: .readQuality)
    }
}

/// `timings`: stage name → seconds; entries that are not numbers are ignored.
private struct Timings: Decodable {
    var values: [String: Double] = [:]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        for key in c.allKeys {
            if let v = try? c.decode(Double.self, forKey: key) { values[key.stringValue] = v }
        }
    }
}
