import Foundation

extension Date {
    /// A date from the wire's milliseconds since 1970 (the same arithmetic MediaModel uses, so
    /// values compare equal).
    package init(wireMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Milliseconds since 1970, rounded, as the wire writes times.
    package var wireMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
