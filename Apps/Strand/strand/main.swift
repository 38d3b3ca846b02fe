import AppRuntime
import StrandApp

await AppLauncher.main(Strand.definition)
