import Testing
@testable import MenuScanKit

@Suite("Bench: --config parsing")
struct BenchConfigTests {
    @Test("label and settings are parsed; the base fills the rest")
    func parse() throws {
        let base = ScanSettings()
        let c = try BenchConfig.parse("sparse:psm=11,lang=eng+deu,max-megapixels=20", base: base)
        #expect(c.label == "sparse")
        #expect(c.settings.ocr.pageSegmentationMode == 11)
        #expect(c.settings.ocr.language == "eng+deu")
        #expect(c.settings.maxMegapixels == 20)
        let bare = try BenchConfig.parse("psm=6", base: base)
        #expect(bare.label == "psm=6" && bare.settings.ocr.pageSegmentationMode == 6)
        let plain = try BenchConfig.parse("default:", base: base)
        #expect(plain.settings == base)
        let scale = try BenchConfig.parse("shrink:text-height=24,min-text-height=12,max-text-height=32,large-text-height=30", base: base)
        #expect(scale.settings.preprocess.targetTextHeight == 24 && scale.settings.preprocess.tinyTextTarget == 24)
        #expect(scale.settings.preprocess.minTextHeight == 12 && scale.settings.preprocess.maxTextHeight == 32)
        #expect(scale.settings.preprocess.largeTextTarget == 30)
    }

    @Test("bad specs are errors that say what is wrong", arguments: ["psm=0", "psm=x", "x:color=red", "x:psm", ":psm=3", "max-megapixels=-1", "max-text-height=0"])
    func invalid(_ spec: String) {
        do {
            _ = try BenchConfig.parse(spec, base: ScanSettings())
            Issue.record("expected an error for \(spec)")
        } catch {
            #expect(error.detail?.contains(spec) == true)
        }
    }
}
