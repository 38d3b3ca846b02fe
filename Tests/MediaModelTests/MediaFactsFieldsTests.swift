import Basics
import Foundation
import Testing

@testable import MediaModel

/// `MediaFacts.fields` is the one description of the facts: these tests fail when a property is
/// added without its line there, and they cover every fact the table lists, including facts
/// added after they were written.
@Suite struct MediaFactsFieldsTests {
    @Test func everyProperty_isInTheTableOnceWithItsKind() {
        // Given the properties MediaFacts stores, and what the table says about them
        let properties = Mirror(reflecting: MediaFacts()).children.map {
            ($0.label ?? "?", kind(of: $0.value))
        }
        let described = MediaFacts.fields.map { ($0.name, $0.kind.rawValue) }

        // Then each property is described once, with the kind of its type
        let missing = properties.filter { property in !described.contains { $0.0 == property.0 } }.map(\.0)
        #expect(
            missing.isEmpty,
            "MediaFacts has \(missing) but MediaFacts.fields does not: add a line for each at the end of the list in MediaFacts.swift"
        )
        let extra = described.filter { field in !properties.contains { $0.0 == field.0 } }.map(\.0)
        #expect(extra.isEmpty, "MediaFacts.fields names \(extra), which MediaFacts does not have")
        #expect(Set(described.map(\.0)).count == described.count, "a fact is listed twice: \(described)")
        for (name, kind) in properties {
            guard let field = described.first(where: { $0.0 == name }) else { continue }
            #expect(field.1 == kind, "MediaFacts.\(name) is a \(kind), but MediaFacts.fields says \(field.1)")
        }
    }

    @Test func eachFieldReachesThePropertyItNames() {
        for field in MediaFacts.fields {
            // Given facts with only this field away from its default
            var facts = MediaFacts()
            field.set(field.value(in: .everyFieldSet), in: &facts)

            // Then the property of that name is the one that changed
            let changed = zip(Mirror(reflecting: facts).children, Mirror(reflecting: MediaFacts()).children)
                .filter { "\($0.value)" != "\($1.value)" }.compactMap(\.0.label)
            #expect(changed == [field.name], "setting \(field) changed \(changed)")
            #expect(
                field.value(in: facts) == field.value(in: .everyFieldSet), "\(field) reads another property")
        }
    }

    @Test func theSampleWithEveryFieldSet_leavesNoneAtItsDefault() {
        let sample = MediaFacts.everyFieldSet
        let unset = zip(Mirror(reflecting: sample).children, Mirror(reflecting: MediaFacts()).children)
            .filter { "\($0.value)" == "\($1.value)" }.compactMap(\.0.label)
        #expect(unset.isEmpty, "MediaFacts.everyFieldSet leaves \(unset) at the default")
    }

    @Test func everyFact_roundTripsTheWireForm() throws {
        // Given no fact set, every fact set, and each fact set alone
        var samples = [MediaFacts(), .everyFieldSet]
        for field in MediaFacts.fields {
            var facts = MediaFacts()
            field.set(field.value(in: .everyFieldSet), in: &facts)
            samples.append(facts)
        }
        for facts in samples {
            // When encoded and decoded again
            let decoded = try MediaFacts(json: JSONValue(parsing: facts.json.serialized()), at: .root)

            // Then nothing is lost
            #expect(decoded == facts)
        }
    }

    @Test func theWireForm_keepsItsBytes() {
        #expect(
            String(decoding: MediaFacts().json.serialized(), as: UTF8.self)
                == #"{"likeCount":0,"replyCount":0,"repostCount":0,"revision":0,"viewerLiked":false}"#)
        let edited = MediaFacts(
            likeCount: 3, viewerLiked: true, replyCount: 1, repostCount: 2, viewerReposted: true,
            caption: "said \"hi\"\n", revision: -7)
        #expect(
            String(decoding: edited.json.serialized(), as: UTF8.self)
                == #"{"caption":"said \"hi\"\n","likeCount":3,"replyCount":1,"repostCount":2,"revision":-7,"viewerLiked":true,"viewerReposted":true}"#
        )
    }

    @Test func theRequiredFacts_areRequiredAndTheOthersDefault() throws {
        #expect(
            throws: WireFormatError(path: WirePath([.key("likeCount")]), problem: "required field is missing")
        ) {
            try MediaFacts(json: ["replyCount": 1], at: .root)
        }
        #expect(
            throws: WireFormatError(
                path: WirePath([.key("replyCount")]), problem: "required field is missing")
        ) {
            try MediaFacts(json: ["likeCount": 1, "replyCount": nil], at: .root)
        }
        #expect(
            try MediaFacts(json: ["likeCount": 4, "replyCount": 1], at: .root)
                == MediaFacts(likeCount: 4, replyCount: 1))
    }

    @Test func theByteWriter_writesWhatTheWireFormWrites() {
        var samples = [MediaFacts(), .everyFieldSet, MediaFacts(likeCount: 1_234_567, revision: Int64.min)]
        for field in MediaFacts.fields {
            var facts = MediaFacts()
            field.set(field.value(in: .everyFieldSet), in: &facts)
            samples.append(facts)
        }
        for facts in samples {
            var bytes: [UInt8] = []
            facts.writeJSON(into: &bytes)
            #expect(Data(bytes) == facts.json.serialized(), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func everyFact_roundTripsTheBinaryForm() throws {
        for facts in [MediaFacts(), .everyFieldSet] {
            var writer = ByteWriter()
            facts.write(to: &writer)
            var reader = ByteReader(writer.bytes)
            #expect(try MediaFacts(reading: &reader) == facts)
            let readEverything = reader.isAtEnd
            #expect(readEverything)
        }
    }

    @Test func theBinaryFingerprint_changesWithTheListOfFacts() {
        let fields = MediaFacts.fields
        let fingerprint = MediaFacts.binaryFingerprint(of: fields)
        #expect(fingerprint == MediaFacts.binaryFingerprint)
        // A fact added, one moved, one retyped: each a different list, so a different form.
        let added = fields + [.flag("viewerBookmarked", { $0.viewerLiked }, { $0.viewerLiked = $1 })]
        let moved = Array(fields.dropFirst()) + fields.prefix(1)
        let retyped = fields.map {
            $0.name == "revision" ? .count("revision", { $0.likeCount }, { $0.likeCount = $1 }) : $0
        }
        for other in [added, moved, retyped] {
            #expect(MediaFacts.binaryFingerprint(of: other) != fingerprint, "\(other)")
        }
    }

    private func kind(of value: Any) -> String {
        switch value {
        case is Int: "count"
        case is Bool: "flag"
        case is String?: "text"
        case is Int64: "revision"
        default: "\(type(of: value))"
        }
    }
}
