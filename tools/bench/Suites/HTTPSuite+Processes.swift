import CommandLineKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// What the http suite needs to run other servers beside its own: Debian's packages installed
// when missing, free ports, and the CPU time of processes it did not start itself (nginx's
// workers, PostgreSQL's backends), read from /proc.

/// A program from a Debian package, installed with `apt-get install -y PACKAGE` when it is
/// missing (as root; `apt-get update` first when the install alone fails).
enum DebianPackage {
    /// The program's path. Throws with the reason when it is missing and cannot be installed.
    static func binary(_ name: String, package: String, candidates: [String], log: (String) -> Void) throws
        -> String
    {
        if let found = locate(name, candidates) { return found }
        guard getuid() == 0 else {
            throw SpawnFailure(
                "\(name) is not installed and this is not root; install it: apt-get install -y \(package)")
        }
        guard
            let aptGet = ["/usr/bin/apt-get", "/bin/apt-get"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw SpawnFailure("\(name) is not installed and there is no apt-get to install it with")
        }
        log("\(name) is not installed; running apt-get install -y \(package)")
        var result = try Subprocess.run(aptGet, ["install", "-y", "-q", package])
        if result.status != 0 {
            log("apt-get install failed (status \(result.status)); running apt-get update, then again")
            _ = try Subprocess.run(aptGet, ["update", "-q"])
            result = try Subprocess.run(aptGet, ["install", "-y", "-q", package])
        }
        guard result.status == 0, let found = locate(name, candidates) else {
            let reason = result.errorText.split(separator: "\n").suffix(2).joined(separator: " / ")
            throw SpawnFailure("apt-get install -y \(package) failed (status \(result.status)): \(reason)")
        }
        return found
    }

    private static func locate(_ name: String, _ candidates: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let onPath = path.split(separator: ":").map { "\($0)/\(name)" }
        return (onPath + candidates).first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Ports of 127.0.0.1.
enum LocalPort {
    /// A port free a moment ago (the kernel's pick for port 0).
    static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SpawnFailure("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw SpawnFailure("cannot pick a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on `port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Other processes' CPU time and children, from /proc.
enum ProcStat {
    /// User plus system CPU seconds of `pids` so far (10 ms ticks); a process already gone
    /// counts nothing.
    static func cpuSeconds(_ pids: [pid_t]) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return pids.reduce(0) { total, pid in total + Double(cpuTicks(pid) ?? 0) / ticks }
    }

    /// The processes whose parent is `parent`.
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { statFields($0)?[1] == String(parent) }
    }

    /// utime + stime of a process, in clock ticks.
    private static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let fields = statFields(pid), fields.count > 12, let user = Int(fields[11]),
            let system = Int(fields[12])
        else { return nil }
        return user + system
    }

    /// The fields of /proc/PID/stat after the command's closing parenthesis (state first).
    private static func statFields(_ pid: pid_t) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ").map(String.init)
    }
}
