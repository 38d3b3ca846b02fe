@_spi(Testing)
extension BackendServer {
    /// Runs `hook` (nil: nothing) just before each uploaded photo is decoded, on the thread that
    /// decodes it: a test holds a decode there to see what the server does meanwhile, or counts
    /// the photos decoded.
    public func onPhotoDecode(_ hook: (@Sendable () -> Void)?) {
        core.photoGate.onDecodeWillStart(hook)
    }
}
