// hello-world: the baseline of `bench process`. A Foundation program that does what every
// program does at least once (reads its arguments and environment through Foundation, formats a
// date, writes a line), so its launch and exit are what the toolchain's Foundation costs any
// Swift program on this machine.
import Foundation

let info = ProcessInfo.processInfo
let stamp = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 0))
FileHandle.standardOutput.write(
    Data("hello from \(info.processName) (\(info.arguments.count) arguments, \(stamp))\n".utf8))
