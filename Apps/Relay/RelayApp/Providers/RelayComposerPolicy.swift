import Sockets

/// A Relay post needs text, up to 500 characters; a photo is optional.
struct RelayComposerPolicy: ComposerPolicy {
    let media = MediaRequirement.optional
    let textLimit = 500
    let textRequired = true
    let noun = "post"
}
