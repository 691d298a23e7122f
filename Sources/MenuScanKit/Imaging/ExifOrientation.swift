/// EXIF / TIFF Orientation (tag 0x0112), 1…8. Leptonica ignores it, so
/// MenuScan reads it itself and turns the photo upright (R1).
public enum ExifOrientation {
    /// The orientation stored in a JPEG (APP1 Exif), PNG (eXIf chunk), WebP
    /// (EXIF chunk) or TIFF file, or nil when the file carries none.
    public static func read(from bytes: [UInt8]) -> Int? {
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            return fromJPEG(bytes)
        }
        if bytes.count >= 8, bytes[0...7].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return fromPNG(bytes)
        }
        if bytes.count >= 12, bytes[0...3].elementsEqual(Array("RIFF".utf8)), bytes[8...11].elementsEqual(Array("WEBP".utf8)) {
            return fromWebP(bytes)
        }
        if bytes.count >= 8, bytes[0...1].elementsEqual([0x49, 0x49]) || bytes[0...1].elementsEqual([0x4D, 0x4D]) {
            return fromTIFF(bytes[...])
        }
        return nil
    }

    static func fromJPEG(_ b: [UInt8]) -> Int? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }          // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data starts: no EXIF before it
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let start = i + 4, end = i + 2 + length
            if marker == 0xE1, end - start > 6, b[start..<start + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                if let o = fromTIFF(b[(start + 6)..<end]) { return o }
            }
            i = end
        }
        return nil
    }

    static func fromPNG(_ b: [UInt8]) -> Int? {
        var i = 8
        while i + 8 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8
            guard length >= 0, start + length <= b.count else { return nil }
            if type == "eXIf" { return fromTIFF(b[start..<(start + length)]) }
            if type == "IDAT" || type == "IEND" { return nil }
            i = start + length + 4
        }
        return nil
    }

    static func fromWebP(_ b: [UInt8]) -> Int? {
        var i = 12
        while i + 8 <= b.count {
            let type = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let length = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            let start = i + 8
            guard start + length <= b.count else { return nil }
            if type == "EXIF" {
                var payload = b[start..<(start + length)]
                if payload.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { payload = payload.dropFirst(6) }
                return fromTIFF(payload)
            }
            i = start + length + (length & 1)
        }
        return nil
    }

    /// Reads IFD0's Orientation from a TIFF structure (EXIF payload or TIFF file).
    static func fromTIFF(_ s: ArraySlice<UInt8>) -> Int? {
        let t = Array(s)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd), count < 1000 else { return nil }
        for n in 0..<count {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }  // SHORT
                return (1...8).contains(value) ? value : nil
            }
        }
        return nil
    }
}
