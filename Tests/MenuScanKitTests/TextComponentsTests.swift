import Foundation
import Testing
@testable import MenuScanKit

/// `QualityAnalysis.textComponents` was rewritten for speed (issue 16): it
/// must find exactly what the first, plain version found. The first version
/// is kept here, word for word, as the reference.
struct TextComponentsTests {
    static func reference(_ g: GrayImage, strokes: Bool = false) -> QualityAnalysis.TextComponents {
        let w = g.width, h = g.height
        var result = QualityAnalysis.TextComponents(components: [], inkHistogram: [Int](repeating: 0, count: 256),
                                    strokeHistogram: strokes ? [Int](repeating: 0, count: 64) : [])
        guard w >= 8, h >= 8 else { return result }
        // Integral image for local means.
        var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var row = 0
            for x in 0..<w {
                row += Int(g.pixels[y * w + x])
                integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row
            }
        }
        let r = max(7, min(w, h) / 24)
        var ink = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            let y0 = max(0, y - r), y1 = min(h, y + r + 1)
            for x in 0..<w {
                let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                let area = (x1 - x0) * (y1 - y0)
                let s = integral[y1 * (w + 1) + x1] - integral[y0 * (w + 1) + x1] - integral[y1 * (w + 1) + x0] + integral[y0 * (w + 1) + x0]
                let mean = Double(s) / Double(area)
                let v = Double(g.pixels[y * w + x])
                ink[y * w + x] = v < mean * 0.85 && mean - v > 12
            }
        }
        // Stroke width at each ink pixel: the shorter of its horizontal and
        // vertical runs (capped at 63), before labelling clears the mask.
        var stroke: [UInt8] = []
        if strokes {
            stroke = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                var x = 0
                while x < w {
                    guard ink[y * w + x] else { x += 1; continue }
                    var end = x
                    while end < w, ink[y * w + end] { end += 1 }
                    let run = UInt8(min(63, end - x))
                    for i in x..<end { stroke[y * w + i] = run }
                    x = end
                }
            }
            for x in 0..<w {
                var y = 0
                while y < h {
                    guard ink[y * w + x] else { y += 1; continue }
                    var end = y
                    while end < h, ink[end * w + x] { end += 1 }
                    let run = UInt8(min(63, end - y))
                    for i in y..<end where stroke[i * w + x] > run { stroke[i * w + x] = run }
                    y = end
                }
            }
        }
        var stack: [Int] = []
        var members: [Int] = []
        for start in 0..<(w * h) where ink[start] {
            ink[start] = false
            stack.append(start)
            members.removeAll(keepingCapacity: true)
            var minX = w, maxX = 0, minY = h, maxY = 0, count = 0
            while let p = stack.popLast() {
                let px = p % w, py = p / w
                count += 1
                members.append(p)
                minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
                for dy in -1...1 {
                    let ny = py + dy
                    guard ny >= 0, ny < h else { continue }
                    for dx in -1...1 {
                        let nx = px + dx
                        guard nx >= 0, nx < w else { continue }
                        let q = ny * w + nx
                        if ink[q] { ink[q] = false; stack.append(q) }
                    }
                }
            }
            let cw = maxX - minX + 1, ch = maxY - minY + 1
            let fill = Double(count) / Double(cw * ch)
            if ch >= 3, ch <= h / 6, cw <= ch * 3, cw * 6 >= ch, fill >= 0.15, count >= 5 {
                result.components.append((ch, count))
                for m in members { result.inkHistogram[Int(g.pixels[m])] += 1 }
                if strokes { for m in members { result.strokeHistogram[Int(stroke[m])] += 1 } }
            }
        }
        return result
    }


    /// Paper with text-like marks of several sizes and stroke widths, some
    /// touching each other and the edges, on an uneven background with noise
    /// (a fixed seed: deterministic).
    static func page(width: Int, height: Int, seed: UInt64) -> GrayImage {
        var rng = SplitMix(seed: seed)
        var g = GrayImage(width: width, height: height, fill: 0)
        for y in 0..<height {
            for x in 0..<width {
                let light = 150 + (x * 60) / max(1, width) + (y * 30) / max(1, height)
                g[x, y] = UInt8(min(255, light + Int(rng.next() % 25)))
            }
        }
        for _ in 0..<(width * height / 300) {
            let ch = 3 + Int(rng.next() % 30), cw = 1 + Int(rng.next() % UInt64(ch * 2))
            let x0 = Int(rng.next() % UInt64(width)) - 2, y0 = Int(rng.next() % UInt64(height)) - 2
            let stroke = 1 + Int(rng.next() % 4), ink = UInt8(rng.next() % 120)
            for y in max(0, y0)..<min(height, y0 + ch) {
                for x in max(0, x0)..<min(width, x0 + cw)
                    where x - x0 < stroke || x0 + cw - 1 - x < stroke || y - y0 < stroke || (y - y0) % 7 == 0 {
                    g[x, y] = ink
                }
            }
        }
        return g
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func same(_ a: QualityAnalysis.TextComponents, _ b: QualityAnalysis.TextComponents) -> Bool {
        a.components.map(\.height) == b.components.map(\.height) && a.components.map(\.pixels) == b.components.map(\.pixels)
            && a.inkHistogram == b.inkHistogram && a.strokeHistogram == b.strokeHistogram
    }

    @Test(arguments: [(8, 8), (9, 40), (40, 9), (120, 90), (333, 251), (640, 480)])
    func sameAsTheReference(size: (Int, Int)) {
        for seed in UInt64(1)...3 {
            let g = Self.page(width: size.0, height: size.1, seed: seed &* 7919 &+ UInt64(size.0))
            for strokes in [false, true] {
                let fast = QualityAnalysis.textComponents(g, strokes: strokes)
                let reference = Self.reference(g, strokes: strokes)
                #expect(Self.same(fast, reference), "\(size) seed \(seed) strokes \(strokes)")
                #expect(!strokes || fast.components.count == 0 || fast.strokeHistogram.reduce(0, +) > 0)
            }
        }
    }

    @Test func tooSmallAndBlankImagesHaveNoComponents() {
        for g in [GrayImage(width: 7, height: 100, fill: 200), GrayImage(width: 100, height: 7, fill: 200),
                  GrayImage(width: 50, height: 50, fill: 200)] {
            let c = QualityAnalysis.textComponents(g, strokes: true)
            #expect(c.components.isEmpty && c.inkHistogram.reduce(0, +) == 0)
        }
    }

    @Test func theGeneratedPagesHoldText() {
        let g = Self.page(width: 640, height: 480, seed: 42)
        #expect(QualityAnalysis.textComponents(g).components.count >= 50)
    }
}
