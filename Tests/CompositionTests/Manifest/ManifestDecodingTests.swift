import Composition
import Foundation
import Testing

@Suite struct ManifestDecodingTests {
    @Test func validManifest_decodesEveryField() throws {
        let manifest = try Fixtures.manifest(Fixtures.validManifest)
        #expect(manifest.app == "demo")
        #expect(manifest.displayName == "Demo")
        #expect(manifest.version == "1.2.3")
        #expect(manifest.sockets.map(\.socket) == ["greeting", "banner"])
        #expect(manifest.provider(for: "banner") == "demo.banner")
        #expect(manifest.serviceIDs == ["storage", "network", "feed", "push"])
        #expect(manifest.services[3].events == ["pushReceived"])
        #expect(manifest.services[0].events == nil)
    }

    @Test func locations_pointAtKeysAndValues() throws {
        let manifest = try Fixtures.manifest(Fixtures.validManifest)
        #expect(manifest.sockets[1].socketLocation.description == "Manifests/demo.json:7:9")
        #expect(manifest.sockets[1].providerLocation.description == "Manifests/demo.json:7:19")
        #expect(manifest.services[3].location.description == "Manifests/demo.json:9:48")
        #expect(manifest.services[3].eventLocations.map(\.description) == ["Manifests/demo.json:9:74"])
    }

    @Test func malformedJSON_reportsThePositionOfTheError() {
        let text = """
            {
                "app": "demo",
                "displayName": "Demo"
                "version": "1"
            }
            """
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:4:5: error: invalid JSON: expected ',' or '}' in the object, found character '\"'"
            ])
    }

    @Test func unterminatedString_isInvalidJSON() {
        #expect(
            Fixtures.problems("{\"app\": \"demo") == [
                "Manifests/demo.json:1:14: error: invalid JSON: unterminated string: expected '\"' before end of file"
            ])
    }

    @Test func trailingComma_isInvalidJSON() {
        #expect(
            Fixtures.problems("{\"app\": \"demo\",}") == [
                "Manifests/demo.json:1:16: error: invalid JSON: trailing ',' before '}' is not allowed in JSON"
            ])
    }

    @Test func unknownKey_isAnErrorWithDidYouMean() {
        let text = Fixtures.validManifest.replacingOccurrences(of: "\"version\"", with: "\"verison\"")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:4:5: error: unknown key 'verison' in manifest; did you mean 'version'? (allowed keys: app, displayName, version, sockets, services)"
            ])
    }

    @Test func wrongTypes_areReportedWithTheValue() {
        let text = """
            {"app": "demo", "displayName": 7, "version": "1", "sockets": {"greeting": true}, "services": [3]}
            """
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:1:32: error: 'displayName' must be a string, found a number 7",
                "Manifests/demo.json:1:75: error: socket 'greeting' must be bound to a provider id string, found a boolean true",
                "Manifests/demo.json:1:95: error: a service entry must be a service id string or an object with \"id\" and \"events\", found a number 3",
            ])
    }

    @Test func blankStrings_areEmptyValues_whateverTheSpaces() {
        // A tab, a no-break space and an ideographic space are blank; a letter among them is not.
        let text = """
            {"app": "\\t", "displayName": "\u{00A0} \u{3000}", "version": " 1 ", "sockets": {}, "services": []}
            """
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:1:9: error: 'app' must not be empty",
                "Manifests/demo.json:1:30: error: 'displayName' must not be empty",
            ])
    }

    @Test func emptyManifest_saysWhatItExpects() {
        for text in ["", "  \n\n  "] {
            #expect(
                Fixtures.problems(text) == [
                    "Manifests/demo.json:1:1: error: manifest is empty; expected a JSON object with the keys \"app\", \"displayName\", \"version\", \"sockets\", \"services\""
                ])
        }
    }

    @Test func emptyObject_listsEveryMissingKey() {
        #expect(
            Fixtures.problems("{}") == [
                "Manifests/demo.json:1:1: error: manifest is missing the required key 'app'",
                "Manifests/demo.json:1:1: error: manifest is missing the required key 'displayName'",
                "Manifests/demo.json:1:1: error: manifest is missing the required key 'version'",
                "Manifests/demo.json:1:1: error: manifest is missing the required key 'sockets'",
                "Manifests/demo.json:1:1: error: manifest is missing the required key 'services'",
            ])
    }

    @Test func nonUTF8File_pointsAtTheBadByte() throws {
        var bytes = Array("{\n  \"app\": \"d".utf8)
        bytes.append(0xFF)
        bytes += Array("mo\"\n}".utf8)
        #expect(throws: ManifestLoadError.self) { try Manifest.parse(bytes, file: "Manifests/demo.json") }
        do {
            _ = try Manifest.parse(bytes, file: "Manifests/demo.json")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "Manifests/demo.json:2:12: error: manifest is not valid UTF-8 (byte 0xFF); save the file as UTF-8"
                ])
        }
    }

    @Test func duplicateKey_isAnError() {
        let text = "{\"app\": \"demo\", \"app\": \"other\"}"
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:1:17: error: invalid JSON: duplicate key 'app' (first written at line 1, column 2)"
            ])
    }

    @Test func rootThatIsNotAnObject_isAnError() {
        #expect(
            Fixtures.problems("[1, 2]") == [
                "Manifests/demo.json:1:1: error: manifest must be a JSON object, found an array"
            ])
    }

    @Test func serviceEntryObject_rejectsUnknownKeys() {
        let text = """
            {"app": "demo", "displayName": "Demo", "version": "1", "sockets": {},
             "services": [{"id": "push", "event": ["pushReceived"]}]}
            """
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:2:30: error: unknown key 'event' in service entry; did you mean 'events'? (allowed keys: id, events)"
            ])
    }

    @Test func escapedStrings_decode() throws {
        let text =
            #"{"app": "d\u00e9mo", "displayName": "Tab\tbed \"quoted\" \ud83d\ude00", "version": "1", "sockets": {}, "services": []}"#
        let manifest = try Fixtures.manifest(text)
        #expect(manifest.app == "démo")
        #expect(manifest.displayName == "Tab\tbed \"quoted\" 😀")
    }
}
