import Foundation

/// One photo to process and where its outputs go.
public struct InputPhoto: Sendable, Equatable, Codable {
    /// The file's path. Kept as a string (a URL object costs about 1 KB more
    /// per photo, which adds up over 10,000-photo folders).
    public let path: String
    public var url: URL { URL(fileURLWithPath: path) }
    /// The path shown in results and logs: the argument joined with the path inside it.
    public let displayPath: String
    /// Output base path relative to the output folder, without extension
    /// (e.g. "lunch/menu" → lunch/menu.json, lunch/menu.txt).
    public var outputBase: String
    /// The path inside the folder argument (the file name for a file
    /// argument): what `--shard` hashes, stable when files are added.
    public var relativePath: String = ""
    /// PDF inputs: the page (1-based) this input stands for; its outputs are
    /// `outputBase` = "NAME.pN". Nil for photos.
    public var page: Int?

    public init(url: URL, displayPath: String, outputBase: String, relativePath: String = "") {
        self.init(path: url.path, displayPath: displayPath, outputBase: outputBase, relativePath: relativePath)
    }

    public init(path: String, displayPath: String, outputBase: String, relativePath: String = "") {
        self.path = path
        // Usually the same text: share one string.
        self.displayPath = displayPath == path ? path : displayPath
        self.outputBase = outputBase
        self.relativePath = relativePath
    }
}

/// Finds the photos to process: files named on the command line are always
/// taken; folders are walked recursively, skipping hidden files and folders and
/// files whose extension is not an image one (the decoder still chooses by content).
public enum InputDiscovery {
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "bmp", "dib", "gif",
        "pnm", "pbm", "pgm", "ppm", "jp2", "j2k",
        "heic", "heif", "hif", "avif",
        // Not an image: a PDF becomes one input per page (see `discover`).
        "pdf",
    ]

    public struct Result: Sendable {
        public var photos: [InputPhoto]
        /// Arguments that do not exist.
        public var missing: [String]
        /// Files inside folders that were left out (not images by extension).
        public var skippedFiles: Int
    }

    /// Default of `--max-pdf-pages`: a long menu or a drinks list fits; a
    /// 300-page catalogue dropped into the folder by mistake does not.
    public static let defaultMaxPDFPages = 50

    /// Each PDF (by its `.pdf` name) becomes one input per page, "NAME.p1" …;
    /// one that cannot be opened or has more than `maxPDFPages` pages stays a
    /// single input, and processing it reports why.
    public static func discover(_ arguments: [String], maxPDFPages: Int = defaultMaxPDFPages) -> Result {
        let fm = FileManager.default
        var found: [(url: URL, display: String, relative: String, root: Int)] = []
        var missing: [String] = []
        var skipped = 0
        for (rootIndex, argument) in arguments.enumerated() {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDir) else {
                missing.append(argument)
                continue
            }
            let rootURL = URL(fileURLWithPath: argument)
            if !isDir.boolValue {
                found.append((rootURL, argument, rootURL.lastPathComponent, rootIndex))
                continue
            }
            var files: [String] = []
            var visited = Set<FolderID>()
            if let id = FolderID(rootURL.path) { visited.insert(id) }
            walk(rootURL, prefix: "", into: &files, skipped: &skipped, visited: &visited)
            for relative in files.sorted() {
                let display = (argument as NSString).appendingPathComponent(relative)
                found.append((rootURL.appendingPathComponent(relative), display, relative, rootIndex))
            }
        }
        // The same file named twice (e.g. a folder and a file inside it) is done once.
        var seen = Set<String>()
        found = found.filter { seen.insert($0.url.standardizedFileURL.path).inserted }

        // Output names: "dir/stem"; where two inputs share it, keep the
        // extension ("dir/stem.png"); where that still clashes (same relative
        // path under two arguments), prefix the argument's position.
        func stemBase(_ r: String) -> String { (r as NSString).deletingPathExtension }
        let stemCounts = Dictionary(grouping: found, by: { stemBase($0.relative) }).mapValues(\.count)
        var bases = found.map { stemCounts[stemBase($0.relative)]! > 1 ? $0.relative : stemBase($0.relative) }
        let baseCounts = Dictionary(grouping: bases, by: { $0 }).mapValues(\.count)
        for i in bases.indices where baseCounts[bases[i]]! > 1 {
            bases[i] = "input\(found[i].root + 1)/" + bases[i]
        }
        var photos: [InputPhoto] = []
        photos.reserveCapacity(found.count)
        for (f, base) in zip(found, bases) {
            let photo = InputPhoto(url: f.url, displayPath: f.display, outputBase: base, relativePath: f.relative)
            guard f.url.pathExtension.lowercased() == "pdf", let count = PDFDocument.pageCount(fileAt: f.url.path),
                  count >= 1, count <= maxPDFPages else {
                photos.append(photo)
                continue
            }
            for page in 1...count {
                var p = photo
                p.outputBase = base + ".p\(page)"
                p.page = page
                photos.append(p)
            }
        }
        return Result(photos: photos, missing: missing, skippedFiles: skipped)
    }

    /// A folder's identity (device and inode, through symlinks): a link back to a
    /// folder already walked is not walked again, so a symlink loop cannot recurse forever.
    struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64
        init?(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    private static func walk(_ dir: URL, prefix: String, into files: inout [String], skipped: inout Int,
                             visited: inout Set<FolderID>) {
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: dir.path) else { return }
        for name in entries where !name.hasPrefix(".") {
            let url = dir.appendingPathComponent(name)
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            let isImage = imageExtensions.contains((name as NSString).pathExtension.lowercased())
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else {
                // A dangling or looping symlink named like a photo: it gets its own error result.
                if isImage { files.append(relative) } else { skipped += 1 }
                continue
            }
            if isDir.boolValue {
                // Walk each folder once, however many links lead to it.
                guard let id = FolderID(url.path), visited.insert(id).inserted else { continue }
                walk(url, prefix: relative, into: &files, skipped: &skipped, visited: &visited)
            } else if isImage {
                files.append(relative)
            } else {
                skipped += 1
            }
        }
    }
}

extension InputDiscovery {
    /// `discover`, for very large folders: the walk runs on its own thread
    /// (so its transient allocations live in their own malloc arena) and the
    /// result is copied into fresh storage on the caller's thread. The walk's
    /// garbage is then wholly free and can go back to the system, instead of
    /// being pinned, page by page, by the photo list interleaved with it.
    public static func discoverCompact(_ arguments: [String], maxPDFPages: Int = defaultMaxPDFPages) -> Result {
        final class Box: @unchecked Sendable {
            // @unchecked: written by the walker thread before `done` is signalled, read after.
            var result: Result?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = discover(arguments, maxPDFPages: maxPDFPages)
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        guard let walked = box.result else { return discover(arguments, maxPDFPages: maxPDFPages) }
        box.result = nil
        func fresh(_ s: String) -> String { String(decoding: Array(s.utf8), as: UTF8.self) }
        let photos = walked.photos.map { p in
            var copy = InputPhoto(path: fresh(p.path), displayPath: fresh(p.displayPath),
                                  outputBase: fresh(p.outputBase), relativePath: fresh(p.relativePath))
            copy.page = p.page
            return copy
        }
        return Result(photos: photos, missing: walked.missing, skippedFiles: walked.skippedFiles)
    }
}
