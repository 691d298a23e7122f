import Foundation

/// items.csv: every menu item of a run, one row each — what a person
/// reviewing a batch opens first. Written beside summary.csv from the
/// photos' JSON results (the summary itself keeps no menu text, R12).
/// RFC 4180 quoting, like summary.csv.
public enum ItemsCSV {
    public static let columns = ["photo", "section", "name", "description", "price", "allergens", "may_contain",
                                 "dietary", "safety", "confidence", "box"]

    public static var header: String { columns.joined(separator: ",") + "\r\n" }

    /// The rows of one photo's items (`photo` is its source path).
    public static func rows(photo: String, menu: MenuAnalysis) -> String {
        var out = ""
        for item in menu.items {
            let fields: [String] = [
                photo, item.section ?? "", item.name, item.description, item.price ?? "",
                item.allergens.map(\.id.rawValue).joined(separator: " "),
                item.mayContain.map(\.rawValue).joined(separator: " "),
                item.dietary.rawValue, item.safety?.rawValue ?? "",
                String(format: "%.3f", item.confidence),
                item.box.map { "\($0.x) \($0.y) \($0.width) \($0.height)" } ?? "",
            ]
            out += fields.map(SummaryCSV.quote).joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// Writes `items.csv` into `directory` from the records' JSON results
    /// (`record.output`, relative to `directory`), atomically, one photo at a time.
    /// A result that cannot be read is left out (its photo's own JSON says why).
    public static func write(records: [PhotoRecord], to directory: URL) throws(MenuScanError) {
        let decoder = JSONDecoder()
        try AtomicWriter.stream(to: directory.appendingPathComponent("items.csv")) { (emit) throws(IOFailure) in
            try emit(Array(header.utf8))
            for r in records where !r.output.isEmpty && (r.items ?? 0) > 0 {
                let url = r.output.hasPrefix("/") ? URL(fileURLWithPath: r.output) : directory.appendingPathComponent(r.output)
                guard let data = try? Data(contentsOf: url),
                      let result = try? decoder.decode(PhotoResult.self, from: data), let menu = result.menu else { continue }
                try emit(Array(rows(photo: r.path, menu: menu).utf8))
            }
        }
    }
}
