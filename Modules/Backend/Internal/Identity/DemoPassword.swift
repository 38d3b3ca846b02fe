import Wire

/// The seed accounts' password (`DemoAccounts.password`) as they store it: hashed once per
/// process, the first time a seeding or a migration needs it, and shared by every seed account
/// that process writes. It is hashed at the low `demo` cost: the password is published, so only
/// the time of every demo sign-in would grow with the cost.
enum DemoPassword {
    static let hash: Result<String, PasswordHashError> = Result { () throws(PasswordHashError) -> String in
        try PasswordHash.make(DemoAccounts.password, cost: .demo)
    }
}
