// new-app: writes a new app as a copy of an existing one and adds it to Package.swift's list of
// apps. See `swift run new-app --help`.
import AppScaffold
import Foundation

exit(NewAppCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
