// hello-world: the baseline of `bench process`: the minimal Foundation program (it imports
// Foundation and prints one line), so its launch and exit are what loading the toolchain's
// Foundation costs any Swift program on this machine, and nothing more.
import Foundation

if CommandLine.arguments.dropFirst().contains("--help") {
    print(
        """
        usage: hello-world

        Prints one line and exits: the minimal Foundation program that `bench process` spawns
        beside the app as its baseline.
        """)
} else {
    print("hello, world")
}
