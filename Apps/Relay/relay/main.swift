import AppRuntime
import RelayApp

await AppLauncher.main(Relay.definition)
