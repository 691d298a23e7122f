import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How `BatchRunner` isolates photos: each runs in a worker process (the
/// same executable, `arguments` naming its hidden worker subcommand).
public struct IsolationOptions: Sendable {
    /// The executable and its arguments (argv[0] included).
    public var executable: String
    public var arguments: [String]
    /// A photo not done this many seconds after it was sent is killed with
    /// its worker (every stage counts, reading the file included).
    public var timeoutSeconds: Double
    /// A worker is replaced after this many photos…
    public var maximumPhotos: Int
    /// …or once its resident memory passes this many bytes.
    public var maximumRSSBytes: Int
    public var hooks: WorkerTestHooks

    /// argv[0] of a worker: the supervisor's real executable path, so the
    /// worker finds models/ beside it whatever the current folder.
    public static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? "menuscan"
    }

    public init(executable: String = "/proc/self/exe", arguments: [String] = [IsolationOptions.executablePath, "_worker"],
                timeoutSeconds: Double, maximumPhotos: Int = 500, maximumRSSBytes: Int = 2 << 30,
                hooks: WorkerTestHooks = WorkerTestHooks()) {
        self.executable = executable
        self.arguments = arguments
        self.timeoutSeconds = timeoutSeconds
        self.maximumPhotos = max(1, maximumPhotos)
        self.maximumRSSBytes = maximumRSSBytes
        self.hooks = hooks
    }
}

/// The supervisor's handle on one worker process: its pid and both pipes.
final class WorkerProcess {
    let pid: pid_t
    private var requests: Int32
    let replies: FrameReader
    private(set) var photosDone = 0
    private var reaped = false

    /// How a worker ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let code): "the worker exited with status \(code)"
            case .signaled(let sig): "the worker was killed by \(WorkerProcess.signalName(sig)) (signal \(sig))"
            }
        }
    }

    private static let spawnLock = NSLock()

    /// Starts a worker and sends it `config`. Nil when it cannot be started.
    init?(isolation: IsolationOptions, config: WorkerConfig) {
        // Pipes are made close-on-exec and the worker spawned under one lock,
        // so no worker inherits another's pipe (it would never see its EOF).
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var toWorker: [Int32] = [0, 0], fromWorker: [Int32] = [0, 0]
        guard pipe(&toWorker) == 0 else { return nil }
        guard pipe(&fromWorker) == 0 else {
            close(toWorker[0]); close(toWorker[1])
            return nil
        }
        for fd in toWorker + fromWorker { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // fd 0: jobs in; fd 3: replies out; fd 1 → stderr (stdout stays the supervisor's).
        posix_spawn_file_actions_adddup2(&actions, toWorker[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromWorker[1], 3)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group: a terminal's Ctrl-C reaches the supervisor only,
        // which decides what happens to the photos in flight.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = isolation.arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, isolation.executable, &actions, &attributes, argv, environ)
        close(toWorker[0])
        close(fromWorker[1])
        guard status == 0 else {
            close(toWorker[1]); close(fromWorker[0])
            return nil
        }
        pid = child
        requests = toWorker[1]
        replies = FrameReader(fd: fromWorker[0])
        WorkerRegistry.shared.add(pid)
        guard Frames.send(config, to: requests) else {
            Glibc.kill(pid, SIGKILL)
            _ = finish()
            return nil
        }
    }

    deinit {
        if !reaped {
            Glibc.kill(pid, SIGKILL)
            _ = finish()
        }
    }

    /// Sends a job; false when the worker is gone.
    func send(_ job: WorkerJob) -> Bool {
        Frames.send(job, to: requests)
    }

    func countPhoto() { photosDone += 1 }

    /// Resident memory now (VmRSS of /proc/PID/status), in bytes.
    var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Kills the worker (SIGKILL) and reaps it.
    func terminate() -> Ending {
        Glibc.kill(pid, SIGKILL)
        return finish()
    }

    /// Closes its job pipe (the worker exits when it reads the end) and reaps it.
    func retire() {
        _ = finish()
    }

    /// Waits for the worker's end (it has closed its replies, or was killed).
    func finish() -> Ending {
        if requests >= 0 { close(requests); requests = -1 }
        var status: Int32 = 0
        var r: pid_t
        repeat { r = waitpid(pid, &status, 0) } while r < 0 && errno == EINTR
        if !reaped {
            reaped = true
            close(replies.fd)
            WorkerRegistry.shared.remove(pid)
        }
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS (macros Swift does not import).
        let sig = status & 0x7F
        if r == pid, sig != 0, sig != 0x7F { return .signaled(sig) }
        return .exited((status >> 8) & 0xFF)
    }

    static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGPIPE: "SIGPIPE"
        case SIGXCPU: "SIGXCPU"
        default: "signal \(sig)"
        }
    }
}

/// The live workers' pids, so a run that is abandoned (SIGTERM) can kill
/// them all at once.
public final class WorkerRegistry: @unchecked Sendable {
    // @unchecked: `pids` is guarded by `lock`.
    public static let shared = WorkerRegistry()
    private let lock = NSLock()
    private var pids = Set<pid_t>()

    func add(_ pid: pid_t) {
        lock.lock()
        pids.insert(pid)
        lock.unlock()
    }

    func remove(_ pid: pid_t) {
        lock.lock()
        pids.remove(pid)
        lock.unlock()
    }

    /// SIGKILLs every live worker (their photos are redone by the next run).
    public func killAll() {
        lock.lock()
        let all = pids
        lock.unlock()
        for pid in all { kill(pid, SIGKILL) }
    }

    /// Resident memory of every live worker, in bytes.
    func residentBytes() -> Int {
        lock.lock()
        let all = pids
        lock.unlock()
        var total = 0
        for pid in all {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                total += (line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) } ?? 0) * 1024
            }
        }
        return total
    }
}
