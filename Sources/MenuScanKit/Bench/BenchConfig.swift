import Foundation

/// One `--config` of `menuscan bench`: a label and the scan settings it runs.
/// Written `LABEL:key=value,key=value` or just `key=value,…` (the label is then
/// the text itself). Keys: `psm`, `lang`, `max-megapixels`, `tessdata`,
/// `rotate=on|off`, `rescale=on|off`, `recover=on|off`, `order=on|off`, `menu=on|off`,
/// `invert=on|off` (light text inverted before OCR), `recover-light=on|off` (light text
/// the page pass missed read inverted by line recovery), `retry-inverted=on|off` (Tesseract's
/// per-line inverted retry), `text-height`, `rotate-confidence`,
/// `thresholding=otsu|adaptive|sauvola`, `quality=enforce|warn|off`.
public struct BenchConfig: Sendable, Equatable {
    public var label: String
    public var settings: ScanSettings

    public init(label: String, settings: ScanSettings) {
        self.label = label
        self.settings = settings
    }

    public static func parse(_ spec: String, base: ScanSettings) throws(MenuScanError) -> BenchConfig {
        var label = spec
        var body = spec
        if let colon = spec.firstIndex(of: ":") {
            label = String(spec[..<colon])
            body = String(spec[spec.index(after: colon)...])
        }
        var settings = base
        for pair in body.split(separator: ",") where !pair.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else { throw invalid(spec, "expected key=value, got '\(pair)'") }
            switch parts[0] {
            case "psm":
                guard let v = Int(parts[1]), (1...13).contains(v) else { throw invalid(spec, "psm must be 1…13") }
                settings.ocr.pageSegmentationMode = v
            case "lang":
                settings.ocr.language = parts[1]
            case "max-megapixels":
                guard let v = Double(parts[1]), v > 0 else { throw invalid(spec, "max-megapixels must be positive") }
                settings.maxMegapixels = v
            case "tessdata":
                settings.ocr.tessdataDirectory = parts[1]
            case "rotate", "rescale", "recover", "order", "menu", "invert", "recover-light", "read-panels", "retry-inverted":
                guard let on = ["on": true, "off": false][parts[1]] else { throw invalid(spec, "\(parts[0]) takes on or off") }
                switch parts[0] {
                case "rotate": settings.preprocess.rotate = on
                case "rescale": settings.preprocess.rescale = on
                case "recover": settings.recoverLines = on
                case "order": settings.readingOrder = on
                case "invert": settings.preprocess.invertLightText = on
                case "recover-light": settings.preprocess.recoverLightText = on
                case "read-panels": settings.preprocess.readPanels = on
                case "retry-inverted": settings.ocr.retryInverted = on
                default: settings.menu = on
                }
            case "text-height":
                guard let v = Double(parts[1]), v > 0 else { throw invalid(spec, "text-height must be positive") }
                settings.preprocess.enlargeSmallText(to: v)
            case "min-text-height":
                guard let v = Double(parts[1]), v >= 0 else { throw invalid(spec, "min-text-height must be ≥ 0") }
                settings.preprocess.minTextHeight = v
            case "max-text-height":
                guard let v = Double(parts[1]), v > 0 else { throw invalid(spec, "max-text-height must be positive") }
                settings.preprocess.maxTextHeight = v
            case "large-text-height":
                guard let v = Double(parts[1]), v > 0 else { throw invalid(spec, "large-text-height must be positive") }
                settings.preprocess.largeTextTarget = v
            case "rotate-confidence":
                guard let v = Double(parts[1]), v >= 0 else { throw invalid(spec, "rotate-confidence must be ≥ 0") }
                settings.preprocess.rotateConfidence = v
            case "thresholding":
                guard let t = OCRSettings.Thresholding(rawValue: parts[1]) else { throw invalid(spec, "thresholding is otsu, adaptive or sauvola") }
                settings.ocr.thresholding = t
            case "quality":
                guard let q = QualityMode(rawValue: parts[1]) else { throw invalid(spec, "quality is enforce, warn or off") }
                settings.quality = q
            default:
                throw invalid(spec, "unknown key '\(parts[0])' (psm, lang, max-megapixels, tessdata, rotate, rescale, recover, order, menu, invert, recover-light, read-panels, retry-inverted, text-height, min-text-height, max-text-height, large-text-height, rotate-confidence, thresholding, quality)")
            }
        }
        guard !label.isEmpty else { throw invalid(spec, "empty label") }
        return BenchConfig(label: label, settings: settings)
    }

    static func invalid(_ spec: String, _ why: String) -> MenuScanError {
        MenuScanError.retry.with(detail: "--config '\(spec)': \(why)")
    }
}
