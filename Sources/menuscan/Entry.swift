import ArgumentParser
import Foundation

@main
enum Entry {
    static func main() {
        OpenMPGuard.ensureSingleThreadedRuntime()
        MenuScanCommand.main()
    }
}

struct MenuScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menuscan",
        abstract: "Turn folders of menu photos into machine-readable results.",
        discussion: """
        Exit codes: 0 every photo ok; 1 some photos failed, were rejected or could not be read \
        (their JSON says why); 64 usage error; 65 (merge) shard summaries missing or inconsistent; \
        66 no input photos found; 69 a language model or other part of the environment is missing; \
        73 output could not be written (storage full, read-only folder); 75 another run is writing \
        to the same output folder (and shard); 130 stopped by SIGINT or SIGTERM (run again to resume).
        """,
        subcommands: [ScanCommand.self, MergeCommand.self, CheckCommand.self, ClassifyCommand.self, BenchCommand.self, ReportCommand.self, DoctorCommand.self, WorkerCommand.self],
        defaultSubcommand: nil)
}

/// Documented exit codes (README, "Exit codes").
enum ExitCodes {
    static let ok: Int32 = 0
    static let somePhotosNotOK: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let environment: Int32 = 69
    static let cannotWrite: Int32 = 73
    static let busy: Int32 = 75
    static let interrupted: Int32 = 130
}

/// Debian's libtesseract runs OpenMP threads inside each recognition, which on
/// this workload is about twice as slow as one thread per photo with one
/// worker per core. libgomp reads OMP_THREAD_LIMIT only when the process
/// starts, so when the user has not set it the tool re-executes itself once
/// with OMP_THREAD_LIMIT=1 (the variable being set, there is no loop).
enum OpenMPGuard {
    static func ensureSingleThreadedRuntime() {
        guard getenv("OMP_THREAD_LIMIT") == nil else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // exec failed (no /proc): carry on; results are the same, only slower.
    }
}
