import Sockets

/// A Prism post needs a photo; a caption is optional.
struct PrismComposerPolicy: ComposerPolicy {
    let media = MediaRequirement.required
    let textLimit = 2200
    let textRequired = false
    let noun = "photo"
}
