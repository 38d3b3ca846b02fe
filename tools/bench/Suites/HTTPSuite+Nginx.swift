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

        /// The nginx binary, installed from Debian's package when missing (see `DebianPackage`).
        static func binary(log: (String) -> Void) throws -> String {
            try DebianPackage.binary("nginx", package: "nginx", candidates: candidates, log: log)
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
            port = try LocalPort.free()
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
            ProcStat.cpuSeconds([master] + ProcStat.children(of: master))
        }

        /// Stops nginx (TERM, then KILL after 5 s, the workers too) and removes its directory.
        func stop() {
            guard !stopped else { return }
            stopped = true
            let workers = ProcStat.children(of: master)
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
                if LocalPort.accepts(port) { return }
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
    }

    /// User plus system CPU seconds of this process so far (`getrusage`, microseconds).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
