/// The message library (SPEC.md, seeds/001): wording is kept as the seeds give
/// it. Codes are stable; tools may rely on them.
public extension MenuScanError {
    /// R4: fewer than 10 characters or every word below 0.3 confidence.
    static let ocrFailed = MenuScanError(
        code: "MSG-OCR-001",
        title: "Unable to Read Menu Text",
        message: "Please try:\n• Better lighting and focus\n• Clear photo of text-based menu\n• Different menu page",
        recovery: "Choose a different photo or retake it with the camera.",
        severity: .medium, recoverable: true)

    /// R2: the photo failed the quality check.
    static let qualityTooLow = MenuScanError(
        code: "MSG-QUALITY-001",
        title: "Photo Quality Too Low",
        message: "Please retake with:\n• Better lighting\n• Steady camera (avoid blur)\n• Clear view of menu",
        recovery: "Retake the photo, choose a different photo, or use it anyway (--quality warn).",
        severity: .medium, recoverable: true)

    /// An unexpected failure inside a stage.
    static let processing = MenuScanError(
        code: "MSG-PROC-001",
        title: "Processing Error",
        message: "Unable to analyze this menu. Please try again or contact support.",
        recovery: "Retry; if it fails again, report the file's code and detail.",
        severity: .high, recoverable: true)

    /// R13: the output storage is full or cannot be written.
    static let storageFull = MenuScanError(
        code: "MSG-STORAGE-001",
        title: "Storage Full",
        message: "Unable to save menu. Your device storage is full. Free up space and try again.",
        recovery: "Free up space on the output drive and run the same command again; finished photos are kept.",
        severity: .critical, recoverable: false)

    /// R15: more than one menu in a photo.
    static let multipleMenus = MenuScanError(
        code: "MSG-MULTI-MENU-001",
        title: "Multiple Menus Detected",
        message: "Please photograph each menu separately for best results.",
        recovery: "Retake with one menu per photo.",
        severity: .low, recoverable: true)

    /// R5 (VegyScan OCR scenario 2): part of the menu was read, part was not.
    /// The seed gives the banner text; the title is the seed's scenario heading.
    static let partialResults = MenuScanError(
        code: "MSG-PARTIAL-001",
        title: "Some Text Recognized",
        message: "Some menu items could not be recognized. Tap to retake.",
        recovery: "Use the hotspots that were read, or retake the photo of the areas listed in unrecognizedRegions (grey in the overlay).",
        severity: .low, recoverable: true)

    /// Generic fallback.
    static let retry = MenuScanError(
        code: "MSG-RETRY-001",
        title: "Try Again?",
        message: "Something went wrong. Please try again.",
        recovery: "Run the same command again.",
        severity: .medium, recoverable: true)

    // MARK: Input problems (R1). The seeds have no message for a file that is
    // not a photo; these follow their tone (say what happened, what to do, no blame).

    /// The file is not an image leptonica can read (empty, truncated, HEIC, PDF, text…).
    static let unreadableImage = MenuScanError(
        code: "MSG-INPUT-001",
        title: "Unable to Open Photo",
        message: "This file could not be read as a photo.",
        recovery: "Choose a different photo, or save it as JPEG or PNG and try again.",
        severity: .medium, recoverable: true)

    /// The image declares more pixels than the configured limit.
    static let imageTooLarge = MenuScanError(
        code: "MSG-INPUT-002",
        title: "Photo Too Large",
        message: "This photo has more pixels than the scan allows.",
        recovery: "Resize the photo, or raise the limit with --max-megapixels.",
        severity: .medium, recoverable: true)

    /// The file could not be opened (permissions, vanished).
    static let fileAccess = MenuScanError(
        code: "MSG-INPUT-003",
        title: "Unable to Open File",
        message: "This file could not be opened.",
        recovery: "Check that the file exists and can be read, then run the same command again.",
        severity: .medium, recoverable: true)

    /// A PDF that needs a password (MenuScan never guesses or asks for one).
    static let protectedDocument = MenuScanError(
        code: "MSG-INPUT-004",
        title: "Protected PDF",
        message: "This PDF is password protected and could not be opened.",
        recovery: "Save an unprotected copy of the PDF (or export its pages as images) and run the same command again.",
        severity: .medium, recoverable: true)

    /// A PDF with more pages than the scan allows (--max-pdf-pages).
    static let tooManyPages = MenuScanError(
        code: "MSG-INPUT-005",
        title: "Document Too Long",
        message: "This PDF has more pages than the scan allows.",
        recovery: "Split the PDF, or raise the limit with --max-pdf-pages.",
        severity: .medium, recoverable: true)

    // MARK: Environment

    /// The Tesseract language model could not be loaded.
    static let modelUnavailable = MenuScanError(
        code: "MSG-ENV-001",
        title: "Language Model Missing",
        message: "The text recognition model for the requested language could not be loaded.",
        recovery: "Run `make setup`, install the tesseract-ocr language package, or point --tessdata at a folder holding LANG.traineddata.",
        severity: .critical, recoverable: false)

    /// R6: AllerGuard's MenuScanError.lowConfidenceResults, wording as in seeds/000.
    static let lowConfidenceResults = MenuScanError(
        code: "lowConfidenceResults",
        title: "Low Confidence Results",
        message: "The menu analysis has low confidence. Please review results carefully.",
        recovery: "Verify ingredients directly with restaurant staff before ordering.",
        severity: .high, recoverable: true)

    /// AllerGuard's MenuScanError.potentialCrossContamination (seeds/000).
    static let potentialCrossContamination = MenuScanError(
        code: "potentialCrossContamination",
        title: "Cross-Contamination Risk",
        message: "Some menu items may have cross-contamination risk with your allergens.",
        recovery: "Ask restaurant staff about their allergen handling practices.",
        severity: .critical, recoverable: true)
}
