import Foundation
import Synchronization

/// Writes a mutant into its source file and puts the original back, keeping a backup on disk
/// in between so that a run that dies (a crash, `kill -9`) can be undone by the next one.
///
/// The backup is written before the mutant and removed only after the original is back, so at
/// every moment either the file is original or its original is in the backup folder.
///
/// ```swift
/// let planter = MutantPlanter(root: root, backupDirectory: "\(root)/.build/mutation-score/backup")
/// _ = try planter.restoreLeftovers()
/// try planter.plant(mutant)
/// defer { try? planter.restore() }
/// ```
public final class MutantPlanter: Sendable {
    /// The package root the mutants' paths are relative to.
    public let root: String
    /// Where originals are kept while a mutant is planted, mirroring their paths.
    public let backupDirectory: String
    private let planted = Mutex<(file: String?, closed: Bool)>((nil, false))

    /// A planter for files under `root`, keeping backups in `backupDirectory`.
    public init(root: String, backupDirectory: String) {
        self.root = root
        self.backupDirectory = backupDirectory
    }

    /// Puts back every original left in the backup folder by an interrupted run, and returns their
    /// paths (relative to the root), sorted.
    ///
    /// - Throws: ``MutationError`` when a backup cannot be read or its file cannot be written.
    public func restoreLeftovers() throws(MutationError) -> [String] {
        let fileManager = FileManager.default
        guard let walker = fileManager.enumerator(atPath: backupDirectory) else { return [] }
        var restored: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let backup = "\(backupDirectory)/\(relative)"
            guard fileManager.fileExists(atPath: backup, isDirectory: &isDirectory), !isDirectory.boolValue
            else {
                continue
            }
            try putBack(relative)
            restored.append(relative)
        }
        return restored.sorted()
    }

    /// Writes `mutant` into its file, after saving the original in the backup folder.
    ///
    /// - Throws: ``MutationError`` when the file cannot be read or written, or its text at the
    ///   mutant's place differs from the mutant's original (the file has nothing planted then).
    public func plant(_ mutant: Mutant) throws(MutationError) {
        try planted.withLock { planted throws(MutationError) in
            guard !planted.closed else {
                throw MutationError("the run was stopped; \(mutant.file) is not mutated")
            }
            if let current = planted.file { try putBack(current) }
            planted.file = nil
            let path = "\(root)/\(mutant.file)"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MutationError("cannot read \(mutant.file)")
            }
            let mutated = try mutant.applied(to: String(decoding: data, as: UTF8.self))
            let backup = "\(backupDirectory)/\(mutant.file)"
            do {
                try FileManager.default.createDirectory(
                    atPath: (backup as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: backup), options: .atomic)
            } catch {
                throw MutationError("cannot back up \(mutant.file) to \(backup): \(error)")
            }
            planted.file = mutant.file
            do {
                try Data(mutated.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                try putBack(mutant.file)
                planted.file = nil
                throw MutationError("cannot write the mutant into \(mutant.file): \(error)")
            }
        }
    }

    /// Puts the planted file's original back (nothing when none is planted). Safe to call from
    /// a signal handler's queue while the run is elsewhere: planting and restoring take turns.
    ///
    /// - Throws: ``MutationError`` when the original cannot be written back (the backup stays).
    public func restore() throws(MutationError) {
        try planted.withLock { planted throws(MutationError) in
            guard let file = planted.file else { return }
            try putBack(file)
            planted.file = nil
        }
    }

    /// Puts the planted file's original back, like ``restore()``, and refuses every later
    /// ``plant(_:)``: what a signal handler calls before the process exits, so that a run going on
    /// meanwhile cannot plant the next mutant.
    ///
    /// - Throws: ``MutationError`` when the original cannot be written back (the backup stays).
    public func close() throws(MutationError) {
        try planted.withLock { planted throws(MutationError) in
            planted.closed = true
            guard let file = planted.file else { return }
            try putBack(file)
            planted.file = nil
        }
    }

    /// The file now holding a mutant, if any.
    public var plantedFile: String? { planted.withLock { $0.file } }

    /// Copies the backup of `file` over it, then removes the backup.
    private func putBack(_ file: String) throws(MutationError) {
        let backup = "\(backupDirectory)/\(file)"
        guard let original = FileManager.default.contents(atPath: backup) else {
            throw MutationError("cannot read the backup \(backup) of \(file)")
        }
        do {
            try original.write(to: URL(fileURLWithPath: "\(root)/\(file)"), options: .atomic)
        } catch {
            throw MutationError("cannot restore \(file) from \(backup): \(error); copy it back by hand")
        }
        // The original is back; a backup that cannot be removed only makes the next run restore
        // the same text again.
        try? FileManager.default.removeItem(atPath: backup)
    }
}
