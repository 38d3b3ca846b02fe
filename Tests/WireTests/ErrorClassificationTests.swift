import Foundation
import Testing
import Wire

@Suite struct ErrorClassificationTests {
    @Test(
        arguments: [
            (200, nil, nil), (201, nil, nil), (204, nil, nil),
            (400, .badRequest, .permanent), (401, .unauthorized, .reauthenticate),
            (403, .forbidden, .permanent),
            (404, .notFound, .permanent), (405, .clientError, .permanent), (408, .requestTimeout, .retry),
            (409, .conflict, .permanent), (413, .clientError, .permanent), (422, .clientError, .permanent),
            (429, .rateLimited, .retry), (500, .serverError, .retry), (502, .serverError, .retry),
            (503, .serverError, .retry), (504, .serverError, .retry), (599, .serverError, .retry),
            (101, .unexpectedStatus, .permanent), (302, .unexpectedStatus, .permanent),
        ] as [(Int, ErrorClass?, ErrorClass.Disposition?)])
    func status_mapsToItsClassAndDisposition(
        status: Int, expected: ErrorClass?, disposition: ErrorClass.Disposition?
    ) {
        let errorClass = ErrorClass(status: status)
        #expect(errorClass == expected)
        #expect(errorClass?.disposition == disposition)
        #expect(Response(status: status).isSuccess == (expected == nil))
    }

    @Test(arguments: ErrorClass.allCases)
    func onlyTransientClassesAreRetryable(errorClass: ErrorClass) {
        let retryable: Set<ErrorClass> = [.offline, .timeout, .requestTimeout, .rateLimited, .serverError]
        #expect(errorClass.isRetryable == retryable.contains(errorClass))
    }

    @Test func failedResponse_carriesServerCodeMessageAndRetryAfter() throws {
        // Given a 429 with the shared error body and a Retry-After in seconds
        let request = Request(.put, "/v1/posts/m1/like")
        let response = Response.error(
            429, code: "rate_limited", message: "slow down", headers: ["Retry-After": "7"])

        // When it is classified
        let error = try #require(response.error(for: request, now: Date()))

        // Then everything the caller needs is there, and the message says what to do
        #expect(error.errorClass == .rateLimited)
        #expect(error.status == 429)
        #expect(error.serverCode == "rate_limited")
        #expect(error.retryAfter == .seconds(7))
        #expect(error.isRetryable)
        #expect(
            error.description
                == "PUT /v1/posts/m1/like: rate limited: HTTP 429 Too Many Requests (rate_limited): slow down "
                + "(retry after 7.0 seconds); it will be retried after the server's Retry-After delay")
    }

    @Test func failedResponseWithoutAnErrorBody_isStillClassified() throws {
        let error = try #require(Response(status: 502, body: Data("<html>".utf8)).error(now: Date()))
        #expect(error.errorClass == .serverError)
        #expect(error.serverCode == nil)
        #expect(error.description == "server error: HTTP 502 Bad Gateway; it will be retried with backoff")
    }

    @Test func successfulResponse_hasNoError() {
        #expect(Response(status: 200).error(now: Date()) == nil)
    }

    @Test func errorBody_roundTripsAndRejectsOtherShapes() {
        let body = ErrorBody(code: "not_found", message: "no post with id 'm9'/x")
        #expect(ErrorBody(decoding: body.encoded()) == body)
        #expect(
            String(decoding: body.encoded(), as: UTF8.self)
                == #"{"error":{"code":"not_found","message":"no post with id 'm9'/x"}}"#)
        #expect(ErrorBody(decoding: Data(#"{"error": "nope"}"#.utf8)) == nil)
        #expect(ErrorBody(decoding: Data("not json".utf8)) == nil)
        #expect(ErrorBody(decoding: Data()) == nil)
    }
}
