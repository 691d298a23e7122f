import ArgumentParser
import Foundation
import MenuScanKit

/// `menuscan _worker`: one worker process of `scan` (hidden; started by the
/// supervisor with its job pipe on fd 0 and its reply pipe on fd 3).
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_worker",
        abstract: "Internal: a scan worker process (started by `menuscan scan`).",
        shouldDisplay: false)

    func run() throws {
        let code = WorkerMain.run()
        if code != 0 { throw ExitCode(code) }
    }
}
