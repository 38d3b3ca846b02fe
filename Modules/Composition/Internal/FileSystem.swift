import Foundation

/// The process's current directory, if it can be read.
func currentDirectory() -> String? {
    let path = FileManager.default.currentDirectoryPath
    return path.isEmpty ? nil : path
}
