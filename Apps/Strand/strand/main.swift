import Features
import StrandApp

await AppLauncher.main(Strand.definition)
