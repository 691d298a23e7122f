/// A straight ruling line on the photo (a column divider, a table or frame
/// border), in upright photo pixels. The reading-order stage treats it as a
/// wall between regions of text.
public struct RuleLine: Equatable, Hashable, Sendable {
    public enum Axis: Sendable { case vertical, horizontal }
    public var axis: Axis
    /// x of a vertical line, y of a horizontal one.
    public var position: Int
    /// Where it starts and ends along its axis (y for a vertical line, x for a
    /// horizontal one); `end` is exclusive.
    public var start: Int
    public var end: Int

    public init(axis: Axis, position: Int, start: Int, end: Int) {
        self.axis = axis
        self.position = position
        self.start = start
        self.end = end
    }

    public var length: Int { end - start }
}

/// Finds ruling lines in 1 bpp ink masks: a morphological opening with a
/// long thin brick keeps only ink that runs straight for `minimumLength`
/// pixels (text strokes are far shorter); its thin connected components are
/// line pieces, and collinear pieces with small breaks (a crossing line, a
/// scanning dropout) join into one line.
enum RuleLineFinder {
    /// `masks` are 1 bpp ink masks of a working copy of the photo scaled by
    /// `factor` (a line found in several is returned once); lines are
    /// returned in photo pixels. `minimumLength` and `maximumThickness` are in
    /// working-copy pixels.
    static func find(in masks: [Bitmap], factor: Double, minimumLength: Int, maximumThickness: Int) -> [RuleLine] {
        guard factor > 0, minimumLength > 1 else { return [] }
        var lines: [RuleLine] = []
        for axis in [RuleLine.Axis.vertical, .horizontal] {
            // Bridge breaks of a few pixels along the axis (a faint line in a
            // downscaled copy), then keep only long straight runs.
            let bridge = axis == .vertical ? (1, 5) : (5, 1)
            let brick = axis == .vertical ? (1, minimumLength) : (minimumLength, 1)
            // A line touching a solid area (a dark banner) would join it into
            // one thick component: remove what is thicker than a line first.
            let thick = axis == .vertical ? (maximumThickness + 1, 1) : (1, maximumThickness + 1)
            let boxes = masks.flatMap { mask -> [Box] in
                guard let long = mask.closed(width: bridge.0, height: bridge.1)?.opened(width: brick.0, height: brick.1),
                      let solid = long.opened(width: thick.0, height: thick.1),
                      let thin = long.subtracting(solid)?.opened(width: brick.0, height: brick.1) else { return [] }
                return thin.componentBoxes()
            }
            let pieces = boxes.compactMap { b -> RuleLine? in
                let (thickness, along) = axis == .vertical ? (b.width, b.height) : (b.height, b.width)
                guard along >= minimumLength, thickness <= maximumThickness else { return nil }
                return axis == .vertical
                    ? RuleLine(axis: axis, position: b.x + b.width / 2, start: b.y, end: b.maxY)
                    : RuleLine(axis: axis, position: b.y + b.height / 2, start: b.x, end: b.maxX)
            }
            let joined = join(pieces, maximumOffset: max(2, maximumThickness), maximumBreak: minimumLength / 2)
            lines += joined.map { l in
                RuleLine(axis: l.axis, position: Int((Double(l.position) / factor).rounded()),
                         start: Int((Double(l.start) / factor).rounded()), end: Int((Double(l.end) / factor).rounded()))
            }
        }
        return lines
    }

    /// Joins collinear pieces: positions at most `maximumOffset` apart and
    /// breaks along the axis of at most `maximumBreak`.
    static func join(_ pieces: [RuleLine], maximumOffset: Int, maximumBreak: Int) -> [RuleLine] {
        var out: [RuleLine] = []
        for p in pieces.sorted(by: { ($0.start, $0.position) < ($1.start, $1.position) }) {
            if let i = out.lastIndex(where: { abs($0.position - p.position) <= maximumOffset && p.start - $0.end <= maximumBreak }) {
                let q = out[i]
                let weight = Double(q.length), added = Double(p.length)
                out[i].position = Int(((Double(q.position) * weight + Double(p.position) * added) / max(1, weight + added)).rounded())
                out[i].end = max(q.end, p.end)
            } else {
                out.append(p)
            }
        }
        return out
    }
}
