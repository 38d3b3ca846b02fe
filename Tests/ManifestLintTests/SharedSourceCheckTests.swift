import Composition
import ManifestLint
import Testing

@Suite struct SharedSourceCheckTests {
    let check = SharedSourceCheck(appNames: [("photos", ["photos", "Photos", "PhotosApp"])])

    @Test func identifierNamingAnApp_isReported() {
        let source = """
            let x = 1
            if app == .photos { print(x) }
            """
        #expect(
            check.check(source: source, file: "Modules/Feed/Feed.swift").map(\.description) == [
                "Modules/Feed/Feed.swift:2:12: error: shared code names app 'photos' ('photos'); ask a socket instead of checking which app is running"
            ])
    }

    @Test func camelCasePartAndTypeName_areReported() {
        let source = "let isPhotosBuild = PhotosApp.self"
        #expect(check.check(source: source, file: "f.swift").map(\.location.column) == [5, 21])
    }

    @Test func stringLiteral_isReported() {
        #expect(check.check(source: #"let id = "photos.branding""#, file: "f.swift").count == 1)
    }

    @Test func comments_areAllowed() {
        let source = """
            // The photos app reads this socket.
            /* Photos: /* nested */ still a comment */
            let url = "http://example.com" // photos
            """
        #expect(check.check(source: source, file: "f.swift").isEmpty)
    }

    @Test func wordsThatOnlyContainTheName_areNotReported() {
        #expect(check.check(source: "let photosynthesis = 1; let photo = 2", file: "f.swift").isEmpty)
    }

    @Test func repositorySharedCode_namesNoApp() {
        let names = LintFixtures.apps.map { app in
            (
                app: app.id,
                names: SharedSourceCheck.names(
                    of: app, displayName: (try? app.manifest.decode().displayName) ?? app.id)
            )
        }
        let problems = SharedSourceCheck(appNames: names).run(
            root: LintFixtures.packageRoot, directories: ["Modules", "Sockets"])
        #expect(problems.map(\.description) == [])
    }
}
