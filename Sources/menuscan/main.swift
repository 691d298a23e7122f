import ArgumentParser
import MenuScanKit

@main
struct MenuScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menuscan",
        abstract: "Turn folders of menu photos into machine-readable results.")
}
