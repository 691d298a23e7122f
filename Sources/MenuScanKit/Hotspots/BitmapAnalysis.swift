import CTesseract

/// Leptonica calls used by the region analysis, each wrapped so every PIX and
/// BOXA it makes is destroyed exactly once (PIX by `Bitmap`, BOXA here).
extension Bitmap {
    /// An 8 bpp gray copy (luminance for RGB; a copy for gray).
    func grayscale() -> Bitmap? {
        derive { pixConvertTo8($0, 0) }
    }

    /// A 32 bpp RGB copy.
    func rgb32() -> Bitmap? {
        derive { pixConvertTo32($0) }
    }

    /// A new blank (all 0) 1 bpp image.
    static func blankMask(width: Int, height: Int) -> Bitmap? {
        guard width > 0, height > 0 else { return nil }
        return Bitmap(owning: pixCreate(l_int32(width), l_int32(height), 1))
    }

    /// Ink as "darker than the local background": the background is a gray
    /// closing with a `backgroundSize` brick (which removes dark marks smaller
    /// than it, such as text, even out of focus); a pixel is ink (1) when it is
    /// at least `minContrast` gray levels below that background. 8 bpp only.
    func darkerThanBackground(backgroundSize: Int, minContrast: Int) -> Bitmap? {
        withUnsafePointer { p -> Bitmap? in
            guard pixGetDepth(p) == 8, pixGetColormap(p) == nil else { return nil }
            let size = max(3, backgroundSize | 1)  // odd
            // a mirrored border keeps the closing honest up to the photo's edge
            let border = l_int32(size / 2 + 1)
            guard let padded = Bitmap(owning: pixAddMirroredBorder(p, border, border, border, border)),
                  let closedPadded = padded.derive({ pixCloseGray($0, l_int32(size), l_int32(size)) }),
                  let background = closedPadded.derive({ pixRemoveBorder($0, border) }),
                  let contrast = background.derive({ pixSubtractGray(nil, $0, p) }) else { return nil }
            // pixThresholdToBinary sets 1 where value < thresh: that is the faint part.
            guard let faint = contrast.derive({ pixThresholdToBinary($0, l_int32(max(1, minContrast))) }) else { return nil }
            return faint.derive { pixInvert(nil, $0) }
        }
    }

    /// Bounding boxes of the 1 bpp image's connected components (8-connected
    /// by default). Empty for any other depth.
    func componentBoxes(connectivity: Int = 8) -> [Box] {
        withUnsafePointer { p -> [Box] in
            guard pixGetDepth(p) == 1 else { return [] }
            var boxa = pixConnComp(p, nil, l_int32(connectivity))
            guard boxa != nil else { return [] }
            defer { boxaDestroy(&boxa) }
            let n = Int(boxaGetCount(boxa))
            var boxes: [Box] = []
            boxes.reserveCapacity(n)
            for i in 0..<n {
                var x: l_int32 = 0, y: l_int32 = 0, w: l_int32 = 0, h: l_int32 = 0
                if boxaGetBoxGeometry(boxa, l_int32(i), &x, &y, &w, &h) == 0 {
                    boxes.append(Box(x: Int(x), y: Int(y), width: Int(w), height: Int(h)))
                }
            }
            return boxes
        }
    }

    /// The connected components' boxes (as `componentBoxes`) and, for each point, the index in them
    /// of the component that holds it (-1 when the pixel is not set or lies outside). 1 bpp only.
    /// One labelling pass: each component's own image (leptonica keeps them with the boxes) says
    /// whether a point inside its box is its pixel, where boxes overlap (slanted lines).
    func components(holding points: [(x: Int, y: Int)], connectivity: Int = 8) -> (boxes: [Box], owner: [Int]) {
        withUnsafePointer { p -> (boxes: [Box], owner: [Int]) in
            let nobody = points.map { _ in -1 }
            guard pixGetDepth(p) == 1 else { return ([], nobody) }
            var pixa: UnsafeMutablePointer<PIXA>? = nil
            var boxa = pixConnComp(p, &pixa, l_int32(connectivity))
            defer { boxaDestroy(&boxa); pixaDestroy(&pixa) }
            guard boxa != nil else { return ([], nobody) }
            var boxes: [Box] = [], index: [Int32] = []   // index: the component's place in boxa/pixa
            for i in 0..<boxaGetCount(boxa) {
                var x: l_int32 = 0, y: l_int32 = 0, w: l_int32 = 0, h: l_int32 = 0
                if boxaGetBoxGeometry(boxa, i, &x, &y, &w, &h) == 0 {
                    boxes.append(Box(x: Int(x), y: Int(y), width: Int(w), height: Int(h)))
                    index.append(i)
                }
            }
            guard pixa != nil else { return (boxes, nobody) }
            let owner = points.map { pt -> Int in
                for (k, b) in boxes.enumerated() where pt.x >= b.x && pt.x < b.maxX && pt.y >= b.y && pt.y < b.maxY {
                    var own = pixaGetPix(pixa, index[k], l_int32(L_CLONE))
                    guard let c = own else { continue }
                    defer { pixDestroy(&own) }
                    var v: l_uint32 = 0
                    if pixGetPixel(c, l_int32(pt.x - b.x), l_int32(pt.y - b.y), &v) == 0, v != 0 { return k }
                }
                return -1
            }
            return (boxes, owner)
        }
    }

    /// Sets every pixel of `box` (clipped) to 1 in a 1 bpp image.
    func setMask(_ box: Box) {
        withUnsafePointer { p in
            guard pixGetDepth(p) == 1 else { return }
            _ = pixRasterop(p, l_int32(box.x), l_int32(box.y), l_int32(box.width), l_int32(box.height),
                            l_int32(PIX_SET), nil, 0, 0)
        }
    }

    /// Morphological closing with a `width`×`height` brick (1 bpp).
    func closed(width: Int, height: Int) -> Bitmap? {
        derive { pixCloseBrick(nil, $0, l_int32(max(1, width)), l_int32(max(1, height))) }
    }

    /// Morphological opening with a `width`×`height` brick (1 bpp): keeps the
    /// ink the brick fits inside.
    func opened(width: Int, height: Int) -> Bitmap? {
        derive { pixOpenBrick(nil, $0, l_int32(max(1, width)), l_int32(max(1, height))) }
    }

    /// Ink as "darker than the whole image's Otsu threshold" (1 = dark). 8 bpp
    /// only. Finds a ruling line at the edge of a shaded panel, which the
    /// local-background ink merges into the panel.
    func darkerThanOtsu() -> Bitmap? {
        withUnsafePointer { p -> Bitmap? in
            guard pixGetDepth(p) == 8, pixGetColormap(p) == nil else { return nil }
            let w = pixGetWidth(p), h = pixGetHeight(p)
            guard w >= 16, h >= 16 else { return nil }
            var dark: UnsafeMutablePointer<PIX>?
            let status = pixOtsuAdaptiveThreshold(p, w, h, 0, 0, 0, nil, &dark)
            let owned = Bitmap(owning: dark)  // destroyed with `owned` whatever the status
            return status == 0 ? owned : nil
        }
    }

    /// This 1 bpp image with `other`'s ink removed (same size).
    func subtracting(_ other: Bitmap) -> Bitmap? {
        other.withUnsafePointer { q in derive { pixSubtract(nil, $0, q) } }
    }
}
