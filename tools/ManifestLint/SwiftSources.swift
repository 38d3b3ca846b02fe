import Foundation

/// The Swift sources the source checks read.
enum SwiftSources {
    /// The text of every `.swift` file under `directories` (relative to `root`), each named as
    /// `directory/path`, in path order within each directory. A directory that does not exist
    /// gives nothing; a file that cannot be read is skipped.
    static func read(root: String, directories: [String]) -> [(file: String, text: String)] {
        var sources: [(file: String, text: String)] = []
        for directory in directories {
            let base = root.isEmpty ? directory : "\(root)/\(directory)"
            guard let enumerator = FileManager.default.enumerator(atPath: base) else { continue }
            var files: [String] = []
            while let next = enumerator.nextObject() as? String {
                if next.hasSuffix(".swift") { files.append(next) }
            }
            for file in files.sorted() {
                guard let data = FileManager.default.contents(atPath: "\(base)/\(file)") else { continue }
                sources.append((file: "\(directory)/\(file)", text: String(decoding: data, as: UTF8.self)))
            }
        }
        return sources
    }
}
