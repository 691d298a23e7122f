import ArgumentParser
import MenuScanKit

// main.swift is top-level code, so `@main` cannot be used once the target has
// more than one file (ClassifyCommand.swift): the entry point is the call below.
struct MenuScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menuscan",
        abstract: "Turn folders of menu photos into machine-readable results.",
        subcommands: [ClassifyCommand.self])
}

MenuScan.main()
