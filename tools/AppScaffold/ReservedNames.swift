import Foundation

/// The names an app cannot take: ones the package already uses for a target, product or folder,
/// Swift's keywords, and the modules and types an app's code would shadow.
///
/// An app `Quill` adds the type `Quill`, the library target `QuillApp` and the executable target
/// and product `quill`; each is compared, ignoring case, with every name the package uses (a
/// target `features` beside a module `Features` would clash on a case-insensitive disk).
struct ReservedNames: Sendable {
    /// Every name the package uses, lowercased, with where it is used, for the message.
    let used: [String: String]

    /// Modules and types an app's enum would shadow in its own code, or keywords, with why.
    static let standard: [String: String] = {
        var reasons: [String: String] = [:]
        for module in [
            "Swift", "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Dispatch",
            "Synchronization", "Testing", "XCTest", "PackageDescription", "PackagePlugin",
        ] {
            reasons[module] = "it is the module '\(module)', which the app's code would shadow"
        }
        for type in [
            "String", "Int", "UInt", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
            "Double", "Float", "Bool", "Character", "Substring", "Array", "Dictionary", "Set", "Optional",
            "Result", "Error", "Never", "Void", "Range", "ClosedRange", "Sequence", "Collection", "Sendable",
            "Hashable", "Equatable", "Comparable", "Codable", "Encodable", "Decodable", "Identifiable",
            "Task", "Actor", "Unicode", "Data", "Date", "URL", "UUID", "Duration", "Clock", "Mutex",
        ] {
            reasons[type] = "it is the standard type '\(type)', which the app's code would shadow"
        }
        for keyword in ["Self", "Type", "Any", "Protocol"] {
            reasons[keyword] = "'\(keyword)' is a Swift keyword"
        }
        for word in ["App", "Apps"] {
            reasons[word] = "the package names each app's library <Name>App and keeps the apps in Apps/"
        }
        return reasons
    }()

    /// Swift's keywords: an executable named so (`struct` for `Struct`) is not a valid module name.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package",
        "precedencegroup", "private", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "any", "as", "await", "false", "is", "nil", "self", "some", "super", "throws", "true", "try",
    ]

    /// Refuses what no package could accept as an app's name: a keyword, a standard module or
    /// type, or a name ending in `App`.
    static func checkStandard(_ app: AppName) throws(ScaffoldRefusal) {
        if let reason = standard[app.name] {
            throw ScaffoldRefusal("'\(app)' is reserved: \(reason); pick another name")
        }
        if app.name.hasSuffix("App") {
            let shorter = String(app.name.dropLast(3))
            throw ScaffoldRefusal(
                "'\(app)' ends in 'App': its library would be named '\(app.library)'; drop the suffix"
                    + (standard[shorter] == nil ? " and try '\(shorter)'" : ""))
        }
        if keywords.contains(app.lowercased) {
            throw ScaffoldRefusal(
                "'\(app)' is reserved: its executable would be named '\(app.lowercased)', a Swift keyword; "
                    + "pick another name")
        }
    }

    /// The names Package.swift (its text) and the folders under Modules/, tools/ and Tests/ of
    /// `root` use.
    ///
    /// From the text: every `name: "X"` literal of a target or product (`.target(name: "X"`), and
    /// the first argument of each call to a helper that Package.swift declares with an unlabeled
    /// `String` first parameter (`module("Features")`, `tool("bench", ...)`). The folders give the
    /// names helpers derive (`Tests/AppsTests`).
    init(packageText: String, root: String) {
        var used: [String: String] = [:]
        for name in Self.declaredNames(in: packageText) where used[name.lowercased()] == nil {
            used[name.lowercased()] = "Package.swift already names a target or product '\(name)'"
        }
        for folder in ["Modules", "tools", "Tests"] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? []
            for entry in entries.sorted() where used[entry.lowercased()] == nil {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(
                    atPath: "\(root)/\(folder)/\(entry)", isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    used[entry.lowercased()] = "\(folder)/\(entry) already exists"
                }
            }
        }
        self.used = used
    }

    /// Refuses a name whose type, library or executable clashes with a name the package uses.
    func check(_ app: AppName) throws(ScaffoldRefusal) {
        for candidate in [app.name, app.library, app.lowercased] {
            guard let place = used[candidate.lowercased()] else { continue }
            throw ScaffoldRefusal(
                "'\(app)' is reserved: the app's targets would be '\(app.library)' and '\(app.lowercased)', "
                    + "and \(place); pick another name")
        }
    }

    /// The target and product names written in Package.swift's text, in order.
    static func declaredNames(in text: String) -> [String] {
        // `Package(name: "Loom")` names the package, which no target clashes with.
        var names = text.matches(of: #/(\w*)\(\s*name:\s*"([A-Za-z0-9_\-]+)"/#)
            .filter { $0.output.1 != "Package" }.map { String($0.output.2) }
        let helpers = Set(
            text.matches(of: #/func\s+(\w+)\s*\(\s*_\s+\w+\s*:\s*String\b/#).map { String($0.output.1) })
        for call in text.matches(of: #/(?:^|[^\w.])(\w+)\(\s*"([A-Za-z0-9_\-]+)"/#)
        where helpers.contains(String(call.output.1)) {
            names.append(String(call.output.2))
        }
        return names
    }
}
