import Foundation

/// Finds the `models/` folder (model and lexicon data the tool loads).
///
/// Order: `$MENUSCAN_MODELS`; `./models` in the working directory; `models/`
/// beside or above the executable (so `.build/debug/menuscan` finds the
/// repository's folder, and an install can put `models/` next to `bin/`).
public enum ModelLocator {
    public static func modelsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executable: String = CommandLine.arguments.first ?? "") -> URL? {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let env = environment["MENUSCAN_MODELS"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env, isDirectory: true))
        }
        candidates.append(URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("models", isDirectory: true))
        // Started through PATH ("menuscan", as a container's entrypoint), argv[0]
        // holds no folder: the running executable is /proc/self/exe.
        var path = executable
        if !path.contains("/"), let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { path = exe }
        if !path.isEmpty {
            var dir = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(dir.appendingPathComponent("models", isDirectory: true))
                candidates.append(dir.appendingPathComponent("share/menuscan/models", isDirectory: true))
                dir = dir.deletingLastPathComponent()
            }
        }
        var isDir: ObjCBool = false
        return candidates.first { fm.fileExists(atPath: $0.path, isDirectory: &isDir) && isDir.boolValue }
    }

    /// A file under the models folder, if present.
    public static func file(_ relativePath: String) -> URL? {
        guard let dir = modelsDirectory() else { return nil }
        let url = dir.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
