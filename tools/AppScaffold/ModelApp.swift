import Foundation

/// A file `new-app` writes, relative to the package root.
struct ScaffoldFile: Sendable, Equatable {
    /// The path from the package root: `Apps/Quill/QuillApp/Quill.swift`.
    var path: String
    /// The file's bytes.
    var contents: [UInt8]
    /// The file's POSIX permissions, copied from the model's file (nil: the default).
    var permissions: Int?
}

/// The app a new one is copied from: every file and folder under `Apps/<Model>/`, and
/// `Manifests/<model>.json`, read into memory.
struct ModelApp: Sendable {
    /// The model's name, as Package.swift's list spells it.
    let name: AppName
    /// Its folders under Apps/, relative to the package root, parents first (`Apps/Strand`, ...).
    let folders: [String]
    /// Its files under Apps/, sorted by path.
    let files: [ScaffoldFile]
    /// Its manifest.
    let manifest: ScaffoldFile

    /// Reads the model app `name` from the package at `root`.
    ///
    /// - Throws: a refusal when its folder or manifest is missing or cannot be read.
    init(_ name: AppName, root: String) throws(ScaffoldRefusal) {
        self.name = name
        let folder = "Apps/\(name)"
        let manifestPath = "Manifests/\(name.lowercased).json"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: "\(root)/\(folder)", isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw ScaffoldRefusal(
                "the model app '\(name)' is in Package.swift's list of apps, but \(folder) does not exist")
        }
        guard FileManager.default.fileExists(atPath: "\(root)/\(manifestPath)") else {
            throw ScaffoldRefusal(
                "the model app '\(name)' is in Package.swift's list of apps, but \(manifestPath) does not "
                    + "exist"
            )
        }
        let subpaths: [String]
        do {
            subpaths = try FileManager.default.subpathsOfDirectory(atPath: "\(root)/\(folder)").sorted()
        } catch {
            throw ScaffoldRefusal("cannot list \(folder): \(error.localizedDescription)")
        }
        var folders = [folder]
        var files: [ScaffoldFile] = []
        for subpath in subpaths {
            let path = "\(folder)/\(subpath)"
            if FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                folders.append(path)
            } else {
                files.append(try Self.read(path, root: root))
            }
        }
        self.folders = folders
        self.files = files
        self.manifest = try Self.read(manifestPath, root: root)
    }

    /// Refuses a name that the model's code already uses for something else (a socket's protocol
    /// such as `Branding`, a type such as `Catalog`, a module such as `Sockets`): the app's enum of
    /// that name would shadow it, and the copy would not compile.
    func checkShadowing(_ app: AppName) throws(ScaffoldRefusal) {
        for file in files where file.path.hasSuffix(".swift") {
            let identifiers = SwiftIdentifiers.inCode(of: String(decoding: file.contents, as: UTF8.self))
            if identifiers.contains(app.name) {
                throw ScaffoldRefusal(
                    "'\(app)' is reserved: \(file.path) uses '\(app)', which the app's type '\(app)' would "
                        + "shadow in the copy; pick another name")
            }
        }
    }

    /// The copy of the model renamed to `app`: its folders, its files and its manifest, with the
    /// model's name replaced in every path and every file's contents.
    func copy(renamedTo app: AppName) -> (folders: [String], files: [ScaffoldFile]) {
        let rename = AppRename(from: name, to: app)
        func renamed(_ file: ScaffoldFile) -> ScaffoldFile {
            ScaffoldFile(
                path: rename.apply(file.path), contents: rename.apply(file.contents),
                permissions: file.permissions)
        }
        return (
            folders.map { rename.apply($0) }, (files + [manifest]).map(renamed).sorted { $0.path < $1.path }
        )
    }

    private static func read(_ path: String, root: String) throws(ScaffoldRefusal) -> ScaffoldFile {
        guard let data = FileManager.default.contents(atPath: "\(root)/\(path)") else {
            throw ScaffoldRefusal("cannot read \(path) of the model app")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: "\(root)/\(path)")
        return ScaffoldFile(
            path: path, contents: [UInt8](data),
            permissions: (attributes?[.posixPermissions] as? NSNumber)?.intValue)
    }
}
