import CommandLineKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The http suite's anchor: nginx serving the very bytes backend-server served, as a static file,
// loaded by the same client in the same run.
extension HTTPSuite {
    /// nginx (Debian's package) serving one page as a static file from a temporary directory, on
    /// a free port of 127.0.0.1, until `stop`.
    ///
    /// The configuration it writes: `daemon off` (the master is this process's child), its pid
    /// file, error log and temporary paths in the directory, no access log, `sendfile on` and
    /// `tcp_nopush on` (Debian's defaults), `keepalive_requests` of ten million (one connection
    /// never has to reconnect in a run), and `worker_processes` given by the caller.
    final class Nginx {
        /// Where Debian puts the binary (and where else it may be).
        static let candidates = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"]

        let port: Int
        let workers: Int
        private let directory: String
        private let master: pid_t
        private var stopped = false

        /// The nginx binary, installed with `apt-get install -y nginx` when it is missing (as
        /// root; `apt-get update` first when the install alone fails). Throws with the reason when
        /// there is none and it cannot be installed.
        static func binary(log: (String) -> Void) throws -> String {
            if let found = locate() { return found }
            guard getuid() == 0 else {
                throw SpawnFailure(
                    "nginx is not installed and this is not root; install it: apt-get install -y nginx")
            }
            guard
                let aptGet = ["/usr/bin/apt-get", "/bin/apt-get"].first(
                    where: FileManager.default.isExecutableFile)
            else {
                throw SpawnFailure("nginx is not installed and there is no apt-get to install it with")
            }
            log("nginx is not installed; running apt-get install -y nginx")
            var result = try Subprocess.run(aptGet, ["install", "-y", "-q", "nginx"])
            if result.status != 0 {
                log("apt-get install failed (status \(result.status)); running apt-get update, then again")
                _ = try Subprocess.run(aptGet, ["update", "-q"])
                result = try Subprocess.run(aptGet, ["install", "-y", "-q", "nginx"])
            }
            guard result.status == 0, let found = locate() else {
                let reason = result.errorText.split(separator: "\n").suffix(2).joined(separator: " / ")
                throw SpawnFailure("apt-get install -y nginx failed (status \(result.status)): \(reason)")
            }
            return found
        }

        private static func locate() -> String? {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            let onPath = path.split(separator: ":").map { "\($0)/nginx" }
            return (onPath + candidates).first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// Writes `page` as `directory/www/v1/feed` and starts nginx on it; returns when it accepts
        /// connections. Throws, with nginx's error log, when it exits or does not listen within
        /// 5 seconds.
        init(binary: String, page: [UInt8], workers: Int) throws {
            directory =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("bench-nginx-\(ProcessInfo.processInfo.processIdentifier)").path
            let fileManager = FileManager.default
            try? fileManager.removeItem(atPath: directory)
            let root = directory + "/www"
            try fileManager.createDirectory(atPath: root + "/v1", withIntermediateDirectories: true)
            try fileManager.createDirectory(atPath: directory + "/temp", withIntermediateDirectories: true)
            // The workers run as nobody when nginx starts as root: they must read the page.
            for path in [directory, root, root + "/v1"] { chmod(path, 0o755) }
            try Data(page).write(to: URL(fileURLWithPath: root + "/v1/feed"))
            chmod(root + "/v1/feed", 0o644)
            port = try Self.freePort()
            self.workers = workers
            let temp = directory + "/temp"
            let configuration = """
                daemon off;
                master_process on;
                worker_processes \(workers);
                pid \(directory)/nginx.pid;
                error_log \(directory)/error.log warn;
                events { worker_connections 1024; }
                http {
                    access_log off;
                    default_type application/json;
                    sendfile on;
                    tcp_nopush on;
                    tcp_nodelay on;
                    keepalive_requests 10000000;
                    keepalive_timeout 60s;
                    client_body_temp_path \(temp)/body;
                    proxy_temp_path \(temp)/proxy;
                    fastcgi_temp_path \(temp)/fastcgi;
                    uwsgi_temp_path \(temp)/uwsgi;
                    scgi_temp_path \(temp)/scgi;
                    server {
                        listen 127.0.0.1:\(port);
                        root \(root);
                        location / { }
                    }
                }

                """
            let configurationPath = directory + "/nginx.conf"
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: configurationPath))
            master = try Spawn.start(
                binary, ["-p", directory, "-e", directory + "/error.log", "-c", configurationPath],
                output: directory + "/output.log")
            do {
                try waitUntilListening()
            } catch {
                stop()
                throw error
            }
        }

        deinit { stop() }

        /// User plus system CPU seconds of the master and its workers so far (/proc/PID/stat).
        func cpuSeconds() -> Double {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            return ([master] + Self.children(of: master)).reduce(0) { total, pid in
                guard let times = Self.cpuTicks(pid) else { return total }
                return total + Double(times) / ticks
            }
        }

        /// Stops nginx (TERM, then KILL after 5 s, the workers too) and removes its directory.
        func stop() {
            guard !stopped else { return }
            stopped = true
            let workers = Self.children(of: master)
            kill(master, SIGTERM)
            var status: Int32 = 0
            var waited = 0
            while waitpid(master, &status, WNOHANG) == 0 {
                if waited >= 500 {
                    for pid in [master] + workers { kill(pid, SIGKILL) }
                    _ = waitpid(master, &status, 0)
                    break
                }
                usleep(10_000)
                waited += 1
            }
            try? FileManager.default.removeItem(atPath: directory)
        }

        private func waitUntilListening() throws {
            for _ in 0..<500 {
                var status: Int32 = 0
                if waitpid(master, &status, WNOHANG) == master {
                    stopped = true
                    throw SpawnFailure("nginx exited at once (status \(status)): \(errorLog())")
                }
                if Self.accepts(port: port) { return }
                usleep(10_000)
            }
            throw SpawnFailure("nginx did not listen on 127.0.0.1:\(port) within 5 s: \(errorLog())")
        }

        private func errorLog() -> String {
            let texts = ["/error.log", "/output.log"].compactMap {
                try? String(contentsOfFile: directory + $0, encoding: .utf8)
            }
            return texts.joined(separator: " ").split(separator: "\n").suffix(3).joined(separator: " / ")
        }

        /// A port of 127.0.0.1 free a moment ago (the kernel's pick for port 0).
        private static func freePort() throws -> Int {
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

        private static func accepts(port: Int) -> Bool {
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

        /// The processes whose parent is `parent` (nginx's workers), from /proc.
        private static func children(of parent: pid_t) -> [pid_t] {
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

    /// User plus system CPU seconds of this process so far (`getrusage`, microseconds).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
