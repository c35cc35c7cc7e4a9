import AltimetryIO
import Foundation

/// The `altimetry` entry point: picks the subcommand, scans its arguments and runs it.
public enum AltimetryCommandLine {
    /// The version printed by `altimetry --version`.
    public static let version = "0.1.0"

    /// Every subcommand, in the order help lists them.
    public static let commands: [any Command.Type] = [
        DemoCommand.self,
        TablesCommand.self,
        BenchCommand.self,
        FloorsCommand.self,
        AscentCommand.self,
        FuseCommand.self,
        SimulateCommand.self,
        CalibrateCommand.self,
        IdentifyCommand.self,
        PlotCommand.self,
        EvaluateCommand.self,
    ]

    /// Runs the command line with a console wired to the process's standard streams.
    public static func main(arguments: [String]) -> Int32 {
        run(arguments: arguments, console: .standard).rawValue
    }

    /// Runs the command line; `arguments` excludes the program name.
    public static func run(arguments: [String], console: Console) -> ExitCode {
        guard let first = arguments.first else {
            console.writeError(overview)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            console.write(overview)
            return checkedOutput(.success, console: console)
        case "--version":
            console.write("altimetry \(version)\n")
            return checkedOutput(.success, console: console)
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            console.writeError("error: unknown command '\(first)'\n\n" + overview)
            return .usage
        }
        return run(command, arguments: Array(arguments.dropFirst()), console: console)
    }

    private static func run(_ command: any Command.Type, arguments: [String], console: Console) -> ExitCode {
        do {
            let scanner = try ArgumentScanner(arguments, options: command.options)
            if scanner.wantsHelp {
                console.write(command.help)
                return checkedOutput(.success, console: console)
            }
            return checkedOutput(try command.init(scanner).run(console: console), console: console)
        } catch {
            console.writeError("error: \(error)\n" + command.usage + "See 'altimetry \(command.name) --help'.\n")
            return .usage
        }
    }

    /// `code`, or `.ioError` (74) with a message when a write to standard output failed (a full disk, a closed
    /// pipe or descriptor): a command whose results were lost never exits 0. A command that failed already keeps
    /// its own code and message.
    static func checkedOutput(_ code: ExitCode, console: Console) -> ExitCode {
        guard code == .success, let failure = console.outputFailure() else { return code }
        console.writeError("error: <stdout>: could not be written: \(failure)\n")
        return .ioError
    }

    /// The list of subcommands.
    static var overview: String {
        var text = "OVERVIEW: Absolute altitude from a barometer and GPS, with an honest one-sigma accuracy.\n\n"
        text += "USAGE: altimetry COMMAND [OPTIONS]\n\nCOMMANDS:\n"
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.overview + "\n"
        }
        text += "\nSee 'altimetry COMMAND --help' for a command's options; 'altimetry --version' for the version.\n"
        return text
    }
}
