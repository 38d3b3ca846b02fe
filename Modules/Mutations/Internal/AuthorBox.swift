import MediaModel

/// A row's author, out of line.
final class AuthorBox: Sendable {
    let user: User

    init(_ user: User) { self.user = user }
}
