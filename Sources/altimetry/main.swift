import AltimetryCLI
import Foundation

exit(AltimetryCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
