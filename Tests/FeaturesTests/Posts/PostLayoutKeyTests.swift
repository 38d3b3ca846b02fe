import AppTesting
import Composition
import Features
import FeedCaching
import Sockets
import Synchronization
import TerminalUI
import Testing

/// The layout key is derived by drawing sample posts; a launch of the same build with the same
/// presentation reads it back from the feed cache instead (`PostLayoutKey.adopt(_:in:)`).
@Suite struct PostLayoutKeyTests {
    @Test(arguments: ShippedApp.all)
    func theSource_isTheSameForTheSameBuildAndPresentation_andOtherwiseNot(app: ShippedApp) throws {
        let registry = try #require(app.registry, "\(app.compositionProblem ?? "")")
        let presentation = PostPresentation(registry: registry, colorMode: .trueColor, imageMode: .blocks)
        let source = try #require(PostLayoutKey.source(of: presentation))
        let again = PostPresentation(registry: registry, colorMode: .trueColor, imageMode: .blocks)
        #expect(PostLayoutKey.source(of: again) == source)
        let plain = PostPresentation(registry: registry, colorMode: .none, imageMode: .ascii)
        #expect(PostLayoutKey.source(of: plain) != source)
        // An overridden socket is a contract no provider id names: no source, derived every launch.
        let overridden = registry.overriding(.postLayout, with: registry[.postLayout])
        let test = PostPresentation(registry: overridden, colorMode: .trueColor, imageMode: .blocks)
        #expect(PostLayoutKey.source(of: test) == nil)
    }

    @Test func theAppsSources_differ() throws {
        let sources = try ShippedApp.all.map { app in
            let registry = try #require(app.registry, "\(app.compositionProblem ?? "")")
            return PostLayoutKey.source(
                of: PostPresentation(registry: registry, colorMode: .trueColor, imageMode: .blocks))
        }
        #expect(Set(sources).count == ShippedApp.all.count, "\(sources)")
    }

    @Test(arguments: ShippedApp.all)
    func adopt_takesTheKeyStoredUnderItsSource_andDerivesItOtherwise(app: ShippedApp) throws {
        let registry = try #require(app.registry, "\(app.compositionProblem ?? "")")
        let presentation = PostPresentation(registry: registry, colorMode: .trueColor, imageMode: .blocks)
        let source = try #require(PostLayoutKey.source(of: presentation))
        let derived = PostLayoutKey.of(presentation)

        // Nothing stored: the key is derived, and adopted with its source.
        let store = LayoutStore()
        #expect(PostLayoutKey.adopt(presentation, in: store))
        #expect(store.adopted == [LayoutStore.Adoption(layout: derived, source: source)])

        // Stored under the source (a key no drawing gives, to tell it apart): taken as it is.
        store.stored = [source: 99]
        #expect(PostLayoutKey.adopt(presentation, in: store))
        #expect(store.adopted.last == LayoutStore.Adoption(layout: 99, source: source))

        // Without a source (an overridden socket), the stored key is not read.
        let overridden = registry.overriding(.postLayout, with: registry[.postLayout])
        let test = PostPresentation(registry: overridden, colorMode: .trueColor, imageMode: .blocks)
        #expect(PostLayoutKey.adopt(test, in: store))
        #expect(store.adopted.last == LayoutStore.Adoption(layout: PostLayoutKey.of(test), source: nil))
    }
}

/// Layout keys kept in memory, and every adoption asked for.
private final class LayoutStore: FeedLayoutStore {
    struct Adoption: Equatable { var layout: Int64, source: Int64? }

    private let state = Mutex<(stored: [Int64: Int64], adopted: [Adoption])>(([:], []))
    var stored: [Int64: Int64] {
        get { state.withLock { $0.stored } }
        set { state.withLock { $0.stored = newValue } }
    }
    var adopted: [Adoption] { state.withLock { $0.adopted } }

    func adoptLayout(_ layout: Int64, source: Int64?) throws -> Bool {
        state.withLock { $0.adopted.append(Adoption(layout: layout, source: source)) }
        return false
    }

    func layout(measuredUnder source: Int64) throws -> Int64? { state.withLock { $0.stored[source] } }
}
