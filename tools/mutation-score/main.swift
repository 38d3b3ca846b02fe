// mutation-score: plants mutants in shared code and measures how many a test suite kills. See
// `swift run mutation-score --help`.
import Foundation
import MutationTesting

exit(MutationScoreCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
