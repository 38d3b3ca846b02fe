extension Terminal {
    /// Suspends as `suspend()` does, calling `stop` where the process would stop: the terminal
    /// is restored while `stop` runs and entered again when it returns.
    @_spi(Testing) public func suspendForTesting(stoppingWith stop: () -> Void) {
        suspend(stoppingWith: stop)
    }
}
