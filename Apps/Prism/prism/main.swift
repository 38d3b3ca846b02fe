import AppRuntime
import PrismApp

await AppLauncher.main(Prism.definition)
