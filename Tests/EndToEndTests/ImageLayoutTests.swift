import Foundation
import Testing

/// The container image, as far as it can be checked without a Docker engine:
/// its runtime packages are the Makefile's, they hold every shared library
/// the binary needs, and the binary works from the image's layout.
@Suite("Container image: runtime packages and layout", .serialized)
struct ImageLayoutTests {
    static let root = CLI.packageRoot

    static func shell(_ command: String, environment: [String: String]? = nil) throws -> CLI.Result {
        try CLI.run(["-c", command], environment: environment, executable: "/bin/sh")
    }

    static func runtimeList() throws -> [String] {
        try String(contentsOf: root.appendingPathComponent("deploy/runtime-packages.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    @Test("the Dockerfile's runtime stage installs deploy/runtime-packages.txt, the list the Makefile installs")
    func packageLists() throws {
        let list = try Self.runtimeList()
        #expect(list.contains("libheif1") && list.contains("libpoppler-glib8") && list.contains("tesseract-ocr-eng"))
        let make = try Self.shell("make -s -C \(Self.root.path) print-runtime-packages")
        #expect(make.status == 0, "\(make.stderr)")
        #expect(make.stdout.split(whereSeparator: \.isWhitespace).map(String.init) == list)
        let setup = try Self.shell("make -s -C \(Self.root.path) print-apt-packages")
        let apt = Set(setup.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(Set(list).isSubset(of: apt), "make setup installs every runtime package")
        // The runtime stage (after the last FROM) installs the list's contents, nothing typed by hand.
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let stages = dockerfile.components(separatedBy: "\nFROM ")
        #expect(stages.count == 3, "two stages")
        let runtime = try #require(stages.last)
        #expect(runtime.hasPrefix("debian:bookworm-slim"))
        #expect(runtime.contains("COPY deploy/runtime-packages.txt /tmp/runtime-packages.txt"))
        #expect(runtime.contains("$(grep -v '^#' /tmp/runtime-packages.txt)"))
        #expect(runtime.contains("\nUSER menuscan"))
        #expect(stages[1].contains("--static-swift-stdlib"))
        // The Kubernetes Job names the image built from it.
        let job = try String(contentsOf: Self.root.appendingPathComponent("deploy/kubernetes-job.yaml"), encoding: .utf8)
        #expect(job.contains("Dockerfile"))
        #expect(job.contains("runAsNonRoot: true"))
    }

    @Test("every shared library the binary loads comes from a runtime package, its dependencies, or the Swift runtime linked in")
    func sharedLibraries() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/dpkg") else {
            print("ImageLayoutTests.sharedLibraries: no dpkg, skipped")
            return
        }
        let list = try Self.runtimeList().joined(separator: " ")
        let ldd = try Self.shell("ldd \(CLI.binary.path) | awk '/=> \\// {print $3}'")
        #expect(ldd.status == 0)
        // What the runtime packages bring, recursively (Debian's own dependency data).
        let closure = try Self.shell("apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \(list) | grep -v '^ ' | sed 's/:.*//' | sort -u")
        var provided = Set(closure.stdout.split(separator: "\n").map(String.init))
        // Essential packages of every Debian image, debian:bookworm-slim included.
        provided.formUnion(["libc6", "libgcc-s1", "libstdc++6", "zlib1g"])
        // Libraries the Swift toolchain's Foundation links in, by family: the
        // toolchain picks the flavour (libcurl-nss here, libcurl with OpenSSL in
        // the swift:bookworm image), the runtime list carries Debian's default.
        let toolchainFamilies = ["libcurl": "libcurl4", "libarchive": "libarchive13"]
        var missing: [String] = []
        for lib in ldd.stdout.split(separator: "\n").map(String.init) {
            // Swift's own runtime comes from the toolchain in a debug build; the image links it statically.
            if lib.contains("/swift/") || lib.contains("swift") && !lib.hasPrefix("/lib") && !lib.hasPrefix("/usr/lib") { continue }
            let file = (lib as NSString).lastPathComponent
            if let family = toolchainFamilies.first(where: { file.hasPrefix($0.key) }) {
                if !provided.contains(family.value) { missing.append("\(lib) (\(family.value))") }
                continue
            }
            let owner = try Self.shell("dpkg -S \"$(readlink -f \(lib))\" 2>/dev/null || dpkg -S \(lib) 2>/dev/null")
            let package = owner.stdout.split(separator: ":").first.map(String.init) ?? "?"
            if !provided.contains(package) { missing.append("\(lib) (\(package))") }
        }
        #expect(missing.isEmpty, "libraries no runtime package provides: \(missing)")
    }

    @Test("from the image layout (/opt/menuscan/bin + models, started through PATH, elsewhere, as a non-root user) a scan works")
    func layout() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let bin = dir.appendingPathComponent("opt/menuscan/bin"), data = dir.appendingPathComponent("data")
        try fm.createDirectory(at: bin, withIntermediateDirectories: true)
        try fm.createDirectory(at: data.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try fm.copyItem(at: CLI.binary, to: bin.appendingPathComponent("menuscan"))
        try fm.copyItem(at: Self.root.appendingPathComponent("models"), to: dir.appendingPathComponent("opt/menuscan/models"))
        try fm.copyItem(at: Self.root.appendingPathComponent("samples/menu-clean.png"),
                        to: data.appendingPathComponent("photos/menu-clean.png"))
        // As in the image: a non-root user when the test runs as root.
        let asUser = getuid() == 0 && fm.isExecutableFile(atPath: "/usr/sbin/runuser") ? "/usr/sbin/runuser -u nobody -- " : ""
        if !asUser.isEmpty {
            _ = try Self.shell("chmod -R a+rX \(dir.path) && chmod 0777 \(data.path) && chmod a+x \(dir.path)")
        }
        let env = ["PATH": "\(bin.path):/usr/bin:/bin", "HOME": data.path]
        let result = try Self.shell("cd \(data.path) && \(asUser)env PATH=\(bin.path):/usr/bin:/bin HOME=\(data.path) menuscan scan photos --out out --jobs 1 --quiet --allergens milk",
                                    environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try CLI.json(data.appendingPathComponent("out/menu-clean.json"))
        #expect(json["status"] as? String == "ok")
        // The lexicon was found beside bin/ (items carry allergens and safety).
        let menu = try #require(json["menu"] as? [String: Any])
        let items = try #require(menu["items"] as? [[String: Any]])
        #expect(items.contains { ($0["safety"] as? String) != nil })
    }
}
