import ArgumentParser
import Dispatch
import Foundation
import MenuScanKit

/// Runs only the quality gate (R2), on the photo and on the copy OCR would read: fast, no OCR.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run only the photo quality gate and print a table (or JSON lines) of verdicts and metrics.")

    @Argument(help: "Photos or folders.")
    var paths: [String]

    @Flag(name: .long, help: "One JSON object per photo on stdout instead of a table.")
    var json = false

    @Option(name: .long, help: "Refuse images larger than this many megapixels.")
    var maxMegapixels: Double = 100

    @OptionGroup var quality: QualityOptions

    func run() throws {
        let discovery = InputDiscovery.discover(paths)
        guard !discovery.photos.isEmpty else { throw ExitCode(ExitCodes.noInput) }
        let gate = QualityGate(thresholds: quality.thresholds)
        let decoder = ImageDecoder(maxMegapixels: maxMegapixels)
        let rows = ResultSlots(count: discovery.photos.count)
        DispatchQueue.concurrentPerform(iterations: discovery.photos.count) { i in
            let photo = discovery.photos[i]
            do throws(MenuScanError) {
                let image = try decoder.decode(fileAt: photo.url)
                // the photo, then the copy OCR would read (issue 17)
                let report = gate.assess(image.pix).map { gate.assessOCRCopy(of: image.pix, report: $0, preprocess: PreprocessSettings()) }
                rows.set(i, CheckRow(path: photo.displayPath, report: report, error: nil))
            } catch {
                rows.set(i, CheckRow(path: photo.displayPath, report: nil, error: ResultMessage(error)))
            }
        }
        let all = rows.values()
        if json {
            for row in all { print(String(decoding: try ResultJSON.encode(row).dropLast(), as: UTF8.self)) }
        } else {
            print(Self.table(all))
        }
        if all.contains(where: { $0.report?.verdict != .ok }) { throw ExitCode(ExitCodes.somePhotosNotOK) }
    }

    static func table(_ rows: [CheckRow]) -> String {
        var lines = [String(format: "%-9@ %-32@ %6@ %6@ %6@ %6@ %6@ %7@  %@", "verdict" as NSString, "defects" as NSString,
                            "sharp" as NSString, "paper" as NSString, "ink" as NSString, "contr" as NSString,
                            "glare" as NSString, "text px" as NSString, "photo" as NSString)]
        for row in rows {
            guard let r = row.report else {
                lines.append(String(format: "%-9@ %-32@ %@", "error" as NSString, (row.error?.code ?? "") as NSString, row.path as NSString))
                continue
            }
            let m = r.metrics
            let defects = r.defects.map(\.kind.rawValue).joined(separator: ",")
            lines.append(String(format: "%-9@ %-32@ %6.2f %6.0f %6.0f %6.0f %6.3f %7@  %@",
                                r.verdict.rawValue as NSString, (defects.isEmpty ? "-" : defects) as NSString,
                                m.sharpness, m.p95, m.inkLevel, m.contrast, m.glareShare,
                                (m.textHeight.map { String(format: "%.1f", $0) } ?? "?") as NSString, row.path as NSString))
        }
        return lines.joined(separator: "\n")
    }
}

struct CheckRow: Codable, Sendable {
    var path: String
    var report: QualityReport?
    var error: ResultMessage?
}

/// Fixed slots filled from concurrent iterations.
final class ResultSlots: @unchecked Sendable {
    // @unchecked: `slots` is guarded by `lock`.
    private let lock = NSLock()
    private var slots: [CheckRow?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ row: CheckRow) { lock.lock(); slots[i] = row; lock.unlock() }
    func values() -> [CheckRow] { lock.lock(); defer { lock.unlock() }; return slots.compactMap { $0 } }
}
