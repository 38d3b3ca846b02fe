import TerminalUI

/// What `--images` asks for: `auto` (the default) or one of TerminalUI's `ImageMode`s by name.
package enum ImagesOption: String, Sendable, CaseIterable {
    /// Ask the terminal: the kitty graphics protocol where it answers the protocol's query,
    /// else half blocks; luminance-ramp characters without color. Headless runs never ask.
    case auto
    /// The photo itself, through the kitty graphics protocol.
    case kitty
    /// Half-block color art.
    case blocks
    /// Luminance-ramp characters, even with color on.
    case ascii
}

extension LaunchConfiguration {
    /// Whether the run should ask the terminal about the kitty graphics protocol: interactive,
    /// `--images auto`, and color on (`colorMode` is the terminal's, from its environment).
    package func asksTerminalAboutImages(colorMode: ColorMode) -> Bool {
        mode == .interactive && images == .auto && colorMode != .none
    }

    /// How photos are drawn: the mode `--images` names; for `auto`, ascii when there is no
    /// color (`NO_COLOR`, a dumb terminal), the kitty protocol when the terminal speaks it,
    /// else half blocks. `registry` is the kitty mode's.
    package func imageMode(colorMode: ColorMode, speaksKitty: Bool, registry: KittyImageRegistry) -> ImageMode
    {
        switch images {
        case .kitty: .kitty(registry)
        case .blocks: .blocks
        case .ascii: .ascii
        case .auto: colorMode == .none ? .ascii : speaksKitty ? .kitty(registry) : .blocks
        }
    }

    /// The mode of a run that asks no terminal (headless): `auto` is blocks, or ascii when
    /// `NO_COLOR` is set.
    package var headlessImageMode: ImageMode {
        imageMode(colorMode: noColor ? .none : .trueColor, speaksKitty: false, registry: KittyImageRegistry())
    }
}
