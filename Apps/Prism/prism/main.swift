import Features
import PrismApp

await AppLauncher.main(Prism.definition)
