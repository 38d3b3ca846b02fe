extension ManifestValidator {
    /// The most characters an id in a manifest may have (app, socket, provider, service and
    /// lifecycle event).
    public static let idLimit = 128
    /// The most characters an app's display name may have (it is drawn in the title bar).
    public static let displayNameLimit = 64

    /// Reports ids and the display name that hold control characters (`DiagnosticText.isControl`)
    /// or are longer than their limit, and returns the manifest without the bindings and
    /// services so refused, so the checks after this one do not quote them again.
    ///
    /// Complexity: O(n) in the manifest's text.
    func checkText(_ manifest: Manifest, into diagnostics: inout [Diagnostic]) -> Manifest {
        func refused(_ value: String, _ what: String, limit: Int, at location: SourceLocation) -> Bool {
            var controls: [Unicode.Scalar] = []
            for scalar in value.unicodeScalars where DiagnosticText.isControl(scalar) {
                if !controls.contains(scalar) { controls.append(scalar) }
            }
            let shown = DiagnosticText.value(value)
            if !controls.isEmpty {
                let listed = controls.prefix(5).map { DiagnosticText.escaped(String($0)) }
                    .joined(separator: ", ")
                diagnostics.append(
                    Diagnostic(
                        at: location, code: "control-characters",
                        "\(what) '\(shown)' contains control characters (\(listed)); remove them"))
                return true
            }
            if value.count > limit {
                diagnostics.append(
                    Diagnostic(
                        at: location, code: "too-long",
                        "\(what) '\(shown)' is too long; it may have at most \(limit) characters"))
                return true
            }
            return false
        }
        var kept = manifest
        _ = refused(manifest.app, "app id", limit: Self.idLimit, at: manifest.appLocation)
        _ = refused(
            manifest.displayName, "display name", limit: Self.displayNameLimit,
            at: manifest.displayNameLocation)
        kept.sockets = manifest.sockets.filter { binding in
            let socket = refused(binding.socket, "socket id", limit: Self.idLimit, at: binding.socketLocation)
            let provider = refused(
                binding.provider, "provider id", limit: Self.idLimit, at: binding.providerLocation)
            return !socket && !provider
        }
        kept.services = manifest.services.filter { entry in
            var bad = refused(entry.id, "service id", limit: Self.idLimit, at: entry.location)
            for (name, location) in zip(entry.events ?? [], entry.eventLocations) {
                bad = refused(name, "lifecycle event", limit: Self.idLimit, at: location) || bad
            }
            return !bad
        }
        return kept
    }
}
