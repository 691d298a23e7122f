import Foundation
import Testing
import MenuScanKit

/// Issue #12, item 5: a scan's items as a table (`items.csv` beside `summary.csv`) and the
/// HTML report's items panel beside each photo's overlay, from the built binary.
@Suite("End to end: items.csv and the report's items", .serialized)
struct ItemsTableTests {
    /// RFC 4180 rows (quoted fields may hold commas, quotes and line breaks).
    static func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\r\n" || c == "\n" { row.append(field); rows.append(row); row = []; field = "" }
            else if c != "\r" { field.append(c) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    @Test("scan writes items.csv: the header, then one row per item of each photo's JSON; report shows them beside the overlay")
    func itemsTableAndReport() throws {
        let input = CLI.temporaryDirectory(), out = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: out) }
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("samples/menu-clean.png"),
                                         to: input.appendingPathComponent("menu-clean.png"))
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("samples/blank.png"),
                                         to: input.appendingPathComponent("blank.png"))
        let run = try CLI.run(["scan", input.path, "--out", out.path, "--allergens", "peanuts,milk", "--quiet", "--jobs", "1"])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let result = try JSONDecoder().decode(PhotoResult.self, from: Data(contentsOf: out.appendingPathComponent("menu-clean.json")))
        let menu = try #require(result.menu)
        #expect(menu.items.count >= 8)

        let rows = Self.csvRows(try String(contentsOf: out.appendingPathComponent("items.csv"), encoding: .utf8))
        #expect(rows.first == ItemsCSV.columns)
        let body = Array(rows.dropFirst())
        // One row per item of the photo with a menu, in its order; the blank photo has none.
        #expect(body.count == menu.items.count)
        #expect(body.allSatisfy { $0.count == ItemsCSV.columns.count && $0[0].hasSuffix("menu-clean.png") })
        func col(_ title: String) throws -> Int { try #require(ItemsCSV.columns.firstIndex(of: title)) }
        let (name, price, safety, allergens) = (try col("name"), try col("price"), try col("safety"), try col("allergens"))
        #expect(body.map { $0[name] } == menu.items.map(\.name))
        #expect(body.map { $0[price] } == menu.items.map { $0.price ?? "" })
        #expect(body.map { $0[safety] } == menu.items.map { $0.safety?.rawValue ?? "" })
        #expect(body.map { $0[allergens] } == menu.items.map { $0.allergens.map(\.id.rawValue).joined(separator: " ") })
        // The satay is peanut, against a peanut profile: never safe.
        if let satay = body.first(where: { $0[name].contains("Satay") }) { #expect(satay[safety] == "unsafe") }

        let report = try CLI.run(["report", out.path, "--quiet"])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        // The photo's section holds its overlay and, after it, its items panel.
        let section = try #require(html.range(of: "id=\"\(HTMLReport.anchor(for: "menu-clean"))\""))
        let rest = html[section.upperBound...]
        let svgEnd = try #require(rest.range(of: "</svg>"))
        let aside = try #require(rest.range(of: "<aside class=\"items\">"))
        #expect(aside.lowerBound >= svgEnd.upperBound)
        let panelEnd = try #require(rest.range(of: "</aside>"))
        let panel = rest[aside.lowerBound..<panelEnd.upperBound]
        for item in menu.items { #expect(panel.contains(HTMLReport.escape(item.name)), "\(item.name)") }
    }
}
