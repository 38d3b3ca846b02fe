// The security suite: each attack that issue 15 ("Hardening") names, and the test that tries
// it, by the sections. Run it alone with `swift test --filter SecurityTests`.
//
// Identity (any caller could act as any user)
// - A session from a handle alone (`POST /v1/sessions {"handle":"grace"}`):
//   SignInAttackTests.signingInWithAHandleAlone_getsNoToken
// - Seed tokens `seed-<handle>` that never expire: SignInAttackTests.seedStyleTokens_areRefused,
//   TokenAttackTests.anExpiredToken_isRefused_andItsRenewTokenGivesANewOne,
//   TokenAttackTests.tokensAreRandom_256BitsOfHex_andNeverRepeat
// - The demo password off demo mode:
//   SignInAttackTests.demoAccounts_cannotSignInOffDemoMode_evenWithTheDemoPassword
// - A token after sign-out, a renew token used twice:
//   TokenAttackTests.aTokenAfterSignOut_isRefused_andSoIsItsRenewToken,
//   TokenAttackTests.aRenewTokenUsedTwice_revokesTheWholeSession
// - Guessing passwords: BruteForceTests.fiveWrongPasswordsForAnAccount_lockItFor15Minutes,
//   BruteForceTests.twentyWrongPasswordsFromOneAddress_lockEveryAccountFromIt,
//   BruteForceTests.aSuccessfulSignIn_clearsTheAccountsCount
// - A flood of sign-ins, each hashing a password:
//   PasswordFloodTests.manySignInsAtOnce_neverHashMoreThanTwoPasswordsAtOnce
// - A copy of the server's database: StoredSecretsTests.theDatabaseHoldsNoTokenAndNoPassword,
//   StoredSecretsTests.passwordsAreScryptHashes_withASaltOfTheirOwn
// - Replaying someone's account-creation key, or another account's mutation key:
//   ReplayAttackTests.aReplayedAccountCreationKey_neverHandsOutTheAccountsToken,
//   ReplayAttackTests.aReplayedMutationKeyFromAnotherAccount_neverSeesTheFirstResponse
// - Duplicate `Authorization` headers, duplicate JSON keys:
//   MalformedIdentityRequestTests.twoAuthorizationHeaders_are400_notTheFirstOrTheLastUser,
//   MalformedIdentityRequestTests.aDuplicateKeyInASignInBody_is400
// The tests with an `AttackPath` argument run each attack three ways: over HTTP, in process, and
// against two servers on one PostgreSQL database with the requests dealt between them in turn
// (`twoServersOnPostgres`, issue 33): what one server learns (a failed sign-in, a revoked token,
// a used key) the other must know. `DeployLocalTests` (BackendTests) runs the guessing attack
// against two backend-server processes behind HAProxy.
// (Not attacks, tested beside their code: the session file's mode 0600 in AppRuntimeTests'
// SessionStoreTests; `backend-server --demo` in BackendTests' BackendServerDemoModeTests;
// `--user` in CrossAppRegressionTests' IdentityScenarios.)
//
// The server stays available
// - 1,024 idle connections holding every slot:
//   AvailabilityTests.aNewConnectionThatSendsNothing_isClosedWhenTheRequestTimeoutEnds,
//   AvailabilityTests.silentConnectionsFillingEverySlot_areClosed_andTheServerServesAgain
// - A connection flood from one address:
//   AvailabilityTests.aFloodFromOneAddress_takesOnlyItsShare_andAnotherAddressIsServed,
//   BackendServerOutputTests.maxConnectionsPerAddress_refusesTheConnectionOverIt
// - 1,000 connections holding 1 MiB partial bodies:
//   BodiesInFlightTests.bodiesOverTheCap_areRefusedWith503_andTheBudgetComesBack,
//   BackendServerOutputTests.halfSentBodies_holdAtMostTheCap_andTheMemoryComesBack
// - `backend-server … | head -1`, then requests (Broken pipe in logging):
//   BackendServerOutputTests.accessLogToAClosedPipe_losesTheLines_andTheServerKeepsServing
// - Ctrl-C under `| tee`: BackendServerOutputTests.ctrlCWithNobodyReading_stopsCleanly
// - HEAD, answered like GET without a body: HeadAndExpectTests.head_answersLikeGetWithoutTheBody
// - `Expect: 999-foo`, answered 417:
//   HeadAndExpectTests.anExpectationTheServerCannotMeet_isRefusedWithTheSharedErrorBodyAndClosed
//
// Hostile input to tools
// - manifest-lint echoing control characters (an ESC sequence in a socket key):
//   HostileManifestTests.anEscapeSequenceInASocketKey_isShownEscaped_andRefused,
//   HostileManifestTests.aDisplayNameWithAControlCharacter_isRefused
// - manifest-lint printing a 10 MB key in full:
//   HostileManifestTests.aTenMegabyteSocketKey_isCut_andRefused,
//   HostileManifestTests.anUnknownKeyOfTenMegabytes_isCutInItsDiagnostic,
//   HostileManifestTests.anOverlongDisplayName_isRefused
//
// Holes found by attacking the server (issue 34)
// - Photos decoded inside the write transaction on the handler threads; a carousel of 100
//   pixel-bomb PNGs (16384x3051, palette + tRNS, a few KB each) froze every request:
//   PhotoAttackTests.aCarouselOfAHundredPixelBombs_isRefusedBeforeAnyPhotoIsDecoded,
//   PhotoAttackTests.aPixelBombPNG_isRefusedFromItsHeader_withTheLimitNamed,
//   PhotoAttackTests.aCarouselOverThePostsPixelBudget_isRefusedBeforeAnyPhotoIsDecoded,
//   PhotoAttackTests.aFeedRead_isAnsweredWhilePhotosAreBeingStored
// - A progressive JPEG of hundreds of scans (704 scans, 11.5 s):
//   PhotoAttackTests.aScanBombJPEG_isRefusedWithTheScanLimitNamed (and ImagingTests'
//   ScanLimitTests)
// - Photos of deleted posts still served, with ids in turn (199 of 199 read):
//   PhotoAttackTests.aDeletedPostsPhotos_are404_andNewPhotoIdsCannotBeCounted
// - A "one-character" text of 20 MB ("a" and ten million combining marks), unknown attachments
//   of 38 MiB: BackendTests' PostLimitTests (bytes, marks, carousel items, unknown attachments
//   at, under and over each limit) and SocketsTests' ComposerLimitTests (the composer's check)
//
// Holes found by attacking the server (issue 34): sign-in, sessions and identity input
// - A flood of valid sign-ins from one address taking every turn at the hash gate:
//   KDFGateFairnessTests.aFloodFromOneAddress_leavesRoomForAnother_andTakesTurnsWithIt (BackendTests)
// - Concurrent guesses racing the sign-in limit (checked before hashing, counted after):
//   SignInRaceTests.fortyConcurrentWrongGuessesFromTwoAddresses_checkOnlyFivePasswords,
//   SignInRaceTests.aSuccessfulSignIn_givesItsSlotBack
// - A renewal whose answer was lost, retried (the family was revoked as a reuse):
//   RenewalRetryTests.aRenewalRetriedWithinTheWindow_getsTheSamePair,
//   RenewalRetryTests.twentyRenewalsAtOnce_handOutOnePair_andEveryCallerGetsIt,
//   RenewalAnswerLostTests.aRenewalWhoseAnswerIsLost_isRetried_andTheSessionGoesOn; reuse still
//   revokes: RenewalRetryTests.theOldRenewTokenAfterTheWindow_revokesTheWholeSession,
//   RenewalRetryTests.theOldRenewTokenAfterTheNewOneWasUsed_revokesTheWholeSession,
//   RenewalRetryTests.theDatabaseHoldsNothingThatGivesTheRetriedPair
// - A UTF-16 body with a duplicate key: HostileIdentityInputTests.aBodyInUTF16_withADuplicateKey_isRefused
// - Display names and bios with ESC, C1, NUL, bidi overrides or piles of combining marks:
//   HostileIdentityInputTests.aHostileDisplayName_isRefusedWith400,
//   HostileIdentityInputTests.aBioWithAnEscapeOrHiddenBulk_isRefused
// - Aliases of ids, paths and cursors (`u+1`, `u01`, `//v1/users/u1`, `f:+…`):
//   HostileIdentityInputTests.anAliasOfAnIdOrAPath_isNotFound,
//   HostileIdentityInputTests.aCursorWithASignOrLeadingZeros_isRefused
// - backend.sqlite (the password hashes) readable by everyone:
//   HostileIdentityInputTests.theDatabaseFile_isReadableByItsOwnerOnly_newOrExisting
// - A full disk's 500 showing the SQL and the database's path:
//   HostileIdentityInputTests.aFullDisk_isA500ThatShowsNoSQLAndNoPath
//
// Holes found by attacking the server (issue 34): the server stays available
// - Two connections announcing 32 MiB bodies and sending nothing, every 10 s (every body got 503):
//   BodyBudgetAttackTests.bodiesAnnouncedAndNotSent_holdNoBudget_andASmallPostIsServed,
//   BodyBudgetAttackTests.aConnectionThatAnnouncesABodyAndSendsNothing_isClosedAfterTheBodyIdleTimeout
//   (BodiesInFlightTests.bodiesOverTheCap_areRefusedWith503_andTheBudgetComesBack now counts the
//   bytes that arrived, not the ones announced)
// - Every route reading a 40 MiB body before its 413:
//   BodyBudgetAttackTests.aBodyOverTheRoutesLimit_isAnswered413FromTheHead_withoutReadingIt,
//   BackendServerBodyLimitTests.aSignInAnnouncingTwoMegabytes_isAnswered413FromTheHead_andClosed
// - 4 addresses x 256 kept-alive connections holding every slot:
//   ConnectionSlotAttackTests.whenIdleConnectionsHoldEverySlot_aNewAddressIsServed_andTheOldestIdleIsClosed
// - Slow heads (slowloris) from several addresses holding every slot:
//   ConnectionSlotAttackTests.slowHeadsFromSeveralAddresses_cannotTakeEverySlot
// - Requests whose lines end in a bare LF: BareLineFeedAttackTests.aLineEndingInABareLF_isRefusedWith400
//
// Holes found by attacking the apps (issue 34): nothing lost (tested where the apps are)
// - A post written while the app's disk is full (the draft was cleared before the journal write):
//   CrossAppRegressionTests' DraftScenarios.aPostTheJournalCannotSave_keepsTheDraft_andSaysSo_untilItIsPosted
// - A posted text back as the draft after a kill -9 (the draft file was removed later):
//   DraftScenarios.aDraftFileLeftBehindByACrashAfterPosting_doesNotComeBack, MutationsTests'
//   ConsumedDraftTests
//
// Direct messages (issue 30): only a conversation's members read or write it
// - A signed-in non-member reading, sending to or marking read a conversation (403, nothing shown):
//   DirectMessageAccessTests.aNonMember_cannotRead_write_orMarkRead_andIsTold403
// - No token on every conversation route (401): DirectMessageAccessTests.withoutAToken_everyRouteIs401
// - Forged conversation ids (c0, c01, c+1, c-1, cx, overflow): 404, never another conversation:
//   DirectMessageAccessTests.aForgedConversationID_is404_forAMemberOfAnother
// - A member's send key replayed by a non-member:
//   DirectMessageAccessTests.aReplayedSendKeyOfAMember_neverShowsTheMessageToANonMember
// - Too many members, forged member ids, unknown accounts; oversize text:
//   DirectMessageAccessTests.tooManyMembers_forgedMemberIDs_andUnknownAccounts_areRefused,
//   DirectMessageAccessTests.anOversizeMessage_isRefused_andNothingIsStored
