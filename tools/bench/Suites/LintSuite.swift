import Composition
import Foundation

/// Validating two manifests against a synthetic catalog of 5,000 sockets.
enum LintSuite {
    protocol Capability: Sendable {}
    struct Value: Capability {}

    static let suite = BenchSuite(
        name: "lint", summary: "5,000 sockets, 10,000 providers, two manifests: decode and validate"
    ) { runner in
        let socketCount = 5000
        var sockets: [SocketDescriptor] = []
        var providers: [Provider] = []
        var texts: [String] = []
        var keys: [Socket<any Capability>] = []
        for index in 0..<socketCount {
            let key: Socket<any Capability> =
                index.isMultiple(of: 2)
                ? .required("socket\(index)", summary: "synthetic")
                : .optional("socket\(index)", summary: "synthetic") { Value() }
            keys.append(key)
            sockets.append(key.descriptor)
        }
        for app in ["alpha", "beta"] {
            var bindings: [String] = []
            for (index, key) in keys.enumerated() {
                providers.append(Provider(id: "\(app).socket\(index)", fills: key) { _ in Value() })
                if index.isMultiple(of: 2) || index % 3 == 0 {
                    bindings.append("        \"socket\(index)\": \"\(app).socket\(index)\"")
                }
            }
            texts.append(
                """
                {
                    "app": "\(app)",
                    "displayName": "\(app)",
                    "version": "1.0.0",
                    "sockets": {
                \(bindings.joined(separator: ",\n"))
                    },
                    "services": []
                }
                """)
        }
        let catalog = Catalog(sockets: sockets, providers: providers)
        let files = texts.map { Array($0.utf8) }
        runner.log("manifests of \(files.map(\.count).reduce(0, +) / 1024) KiB")

        let lint = try runner.measure(warmup: 1, runs: 8) {
            let validator = ManifestValidator(catalog: catalog)
            for (index, bytes) in files.enumerated() {
                let manifest = try Manifest.parse(bytes, file: "Manifests/\(index).json")
                let problems = validator.validate(manifest)
                precondition(problems.isEmpty, "synthetic manifest is invalid: \(problems.prefix(3))")
            }
        }
        let floor = try runner.measure(warmup: 1, runs: 8) {
            for bytes in files { blackHole(try JSONSerialization.jsonObject(with: Data(bytes))) }
        }
        runner.report(
            "decode + validate 2 manifests", lint, unit: .milliseconds,
            baseline: ("JSONSerialization parse only", floor), targets: [.atMost(1000)])
    }
}
