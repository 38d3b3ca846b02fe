import Basics
import Foundation

/// Why a manifest could not be read: every problem found, each with file, line and column.
public struct ManifestLoadError: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order.
    public var diagnostics: [Diagnostic]

    /// Makes an error from its diagnostics.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Every diagnostic, one per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension Manifest {
    /// The keys a manifest's top-level object may have.
    public static let topLevelKeys = ["app", "displayName", "version", "sockets", "services"]

    /// Reads a manifest from a file. `displayPath` is how diagnostics name the file (defaults to
    /// the path as given).
    public static func load(contentsOf path: String, displayPath: String? = nil) throws(ManifestLoadError)
        -> Manifest
    {
        let shown = displayPath ?? path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ManifestLoadError(diagnostics: [
                Diagnostic(
                    at: SourceLocation(file: shown, line: 1, column: 1), code: "unreadable-file",
                    "cannot read manifest file '\(DiagnosticText.value(path))'; check that it exists and is readable"
                )
            ])
        }
        return try parse(Array(data), file: shown)
    }

    /// Decodes a manifest strictly from its bytes: invalid UTF-8, malformed JSON, unknown keys,
    /// missing keys and wrong types are all errors, each reported with its position. Problems in
    /// different parts of the file are all reported, not only the first.
    public static func parse(_ bytes: [UInt8], file: String) throws(ManifestLoadError) -> Manifest {
        if let invalid = JSONParser.firstInvalidUTF8(in: bytes, file: file) {
            let hex = String(invalid.byte, radix: 16, uppercase: true)
            throw ManifestLoadError(diagnostics: [
                Diagnostic(
                    at: invalid.location, code: "invalid-utf8",
                    "manifest is not valid UTF-8 (byte 0x\(hex)); save the file as UTF-8")
            ])
        }
        let isBlank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if isBlank {
            let keys = topLevelKeys.map { "\"\($0)\"" }.joined(separator: ", ")
            throw ManifestLoadError(diagnostics: [
                Diagnostic(
                    at: SourceLocation(file: file, line: 1, column: 1), code: "empty-manifest",
                    "manifest is empty; expected a JSON object with the keys \(keys)")
            ])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, file: file)
        } catch {
            throw ManifestLoadError(diagnostics: [
                Diagnostic(at: error.location, code: "invalid-json", "invalid JSON: \(error.message)")
            ])
        }
        var decoder = ManifestDecoder(file: file)
        let manifest = decoder.decode(root)
        if let manifest, decoder.diagnostics.isEmpty { return manifest }
        throw ManifestLoadError(diagnostics: decoder.diagnostics.sorted { $0.location < $1.location })
    }
}

/// Turns a positioned JSON tree into a `Manifest`, collecting every structural problem.
private struct ManifestDecoder {
    let file: String
    var diagnostics: [Diagnostic] = []

    init(file: String) {
        self.file = file
    }

    mutating func decode(_ root: JSONNode) -> Manifest? {
        guard case .object(let members) = root.value else {
            report(
                root.location, "not-an-object",
                "manifest must be a JSON object, found \(root.typeDescription)")
            return nil
        }
        var app: String?
        var displayName: String?
        var version: String?
        var sockets: [SocketBinding]?
        var services: [ServiceEntry]?
        var appLocation = root.location
        var displayNameLocation = root.location
        var socketsLocation = root.location
        var servicesLocation = root.location
        for member in members {
            switch member.key {
            case "app":
                appLocation = member.value.location
                app = nonEmptyString(member)
            case "displayName":
                displayNameLocation = member.value.location
                displayName = nonEmptyString(member)
            case "version": version = nonEmptyString(member)
            case "sockets":
                socketsLocation = member.keyLocation
                sockets = decodeSockets(member.value)
            case "services":
                servicesLocation = member.keyLocation
                services = decodeServices(member.value)
            default:
                let hint = Suggestion.didYouMean(member.key, in: Manifest.topLevelKeys)
                let allowed = Manifest.topLevelKeys.joined(separator: ", ")
                report(
                    member.keyLocation, "unknown-key",
                    "unknown key '\(DiagnosticText.value(member.key))' in manifest\(hint) (allowed keys: \(allowed))"
                )
            }
        }
        let present = Set(members.map(\.key))
        // A misspelt key is reported once, as unknown with a suggestion, not also as missing.
        let suggested = Set(
            members.filter { !Manifest.topLevelKeys.contains($0.key) }
                .compactMap { Suggestion.closest(to: $0.key, in: Manifest.topLevelKeys) })
        for key in Manifest.topLevelKeys where !present.contains(key) && !suggested.contains(key) {
            report(root.location, "missing-key", "manifest is missing the required key '\(key)'")
        }
        guard let app, let displayName, let version, let sockets, let services else { return nil }
        return Manifest(
            file: file, app: app, displayName: displayName, version: version, sockets: sockets,
            services: services, location: root.location, appLocation: appLocation,
            displayNameLocation: displayNameLocation, socketsLocation: socketsLocation,
            servicesLocation: servicesLocation)
    }

    private mutating func report(_ location: SourceLocation, _ code: String, _ message: String) {
        diagnostics.append(Diagnostic(at: location, code: code, message))
    }

    private mutating func nonEmptyString(_ member: JSONNode.Member) -> String? {
        guard case .string(let text) = member.value.value else {
            report(
                member.value.location, "wrong-type",
                "'\(DiagnosticText.value(member.key))' must be a string, found \(member.value.typeDescription) \(member.value.quoted)"
            )
            return nil
        }
        // Blank is what `CharacterSet.whitespaces` holds (tabs and spaces of every kind), checked
        // without bridging to NSString: the manifest is decoded on every launch.
        if text.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator })
        {
            report(
                member.value.location, "empty-value",
                "'\(DiagnosticText.value(member.key))' must not be empty")
            return nil
        }
        return text
    }

    private mutating func decodeSockets(_ node: JSONNode) -> [SocketBinding]? {
        guard case .object(let members) = node.value else {
            report(
                node.location, "wrong-type",
                "'sockets' must be an object mapping socket ids to provider ids, found \(node.typeDescription)"
            )
            return nil
        }
        var bindings: [SocketBinding] = []
        var valid = true
        for member in members {
            guard case .string(let provider) = member.value.value, !provider.isEmpty else {
                report(
                    member.value.location, "wrong-type",
                    "socket '\(DiagnosticText.value(member.key))' must be bound to a provider id string, found \(member.value.typeDescription) \(member.value.quoted)"
                )
                valid = false
                continue
            }
            bindings.append(
                SocketBinding(
                    socket: member.key, provider: provider, socketLocation: member.keyLocation,
                    providerLocation: member.value.location))
        }
        return valid ? bindings : nil
    }

    private mutating func decodeServices(_ node: JSONNode) -> [ServiceEntry]? {
        guard case .array(let elements) = node.value else {
            report(
                node.location, "wrong-type",
                "'services' must be an array of service ids, found \(node.typeDescription)")
            return nil
        }
        var entries: [ServiceEntry] = []
        var valid = true
        for element in elements {
            switch element.value {
            case .string(let id) where !id.isEmpty:
                entries.append(
                    ServiceEntry(id: id, events: nil, location: element.location, eventLocations: []))
            case .object(let members):
                if let entry = decodeServiceObject(members, at: element.location) {
                    entries.append(entry)
                } else {
                    valid = false
                }
            default:
                report(
                    element.location, "wrong-type",
                    "a service entry must be a service id string or an object with \"id\" and \"events\", found \(element.typeDescription) \(element.quoted)"
                )
                valid = false
            }
        }
        return valid ? entries : nil
    }

    private mutating func decodeServiceObject(_ members: [JSONNode.Member], at location: SourceLocation)
        -> ServiceEntry?
    {
        var id: String?
        var events: [String]?
        var eventLocations: [SourceLocation] = []
        var valid = true
        for member in members {
            switch member.key {
            case "id":
                id = nonEmptyString(member)
                if id == nil { valid = false }
            case "events":
                guard case .array(let names) = member.value.value else {
                    report(
                        member.value.location, "wrong-type",
                        "'events' must be an array of lifecycle event names, found \(member.value.typeDescription)"
                    )
                    valid = false
                    continue
                }
                var list: [String] = []
                for name in names {
                    guard case .string(let text) = name.value else {
                        report(
                            name.location, "wrong-type",
                            "a lifecycle event name must be a string, found \(name.typeDescription) \(name.quoted)"
                        )
                        valid = false
                        continue
                    }
                    list.append(text)
                    eventLocations.append(name.location)
                }
                events = list
            default:
                let hint = Suggestion.didYouMean(member.key, in: ["id", "events"])
                report(
                    member.keyLocation, "unknown-key",
                    "unknown key '\(DiagnosticText.value(member.key))' in service entry\(hint) (allowed keys: id, events)"
                )
                valid = false
            }
        }
        guard let id else {
            if valid { report(location, "missing-key", "service entry is missing the required key 'id'") }
            return nil
        }
        guard valid else { return nil }
        return ServiceEntry(id: id, events: events, location: location, eventLocations: eventLocations)
    }
}
