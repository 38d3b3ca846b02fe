import Foundation
import TerminalUI
import Testing

@Suite struct KittyGraphicsTests {
    private let escape = "\u{1B}"

    @Test func transmit_smallImage_isOneQuietCommandWithItsSizeAndRGBBytes() throws {
        let red = try RGBImage(width: 1, height: 1, rgb: [255, 0, 0])
        #expect(
            KittyGraphics.transmit(red, id: 7) == "\(escape)_Ga=t,f=24,s=1,v=1,i=7,q=2,m=0;/wAA\(escape)\\")
    }

    @Test func transmit_largeImage_isChunkedAt4096Base64BytesWithMoreFlags() throws {
        // 40x40 RGB: 4800 bytes, 6400 in base64: one full chunk and one of 2304.
        let bytes = (0..<4800).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let image = try RGBImage(width: 40, height: 40, rgb: bytes)
        let output = KittyGraphics.transmit(image, id: 0x12_3456)
        let commands = output.components(separatedBy: "\(escape)\\").dropLast()
        #expect(commands.count == 2)
        let first = try #require(commands.first)
        let last = try #require(commands.last)
        #expect(first.hasPrefix("\(escape)_Ga=t,f=24,s=40,v=40,i=1193046,q=2,m=1;"))
        #expect(last.hasPrefix("\(escape)_Gm=0;"), "later chunks carry only m")
        let payloads = commands.map { $0.split(separator: ";", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(payloads.map(\.utf8.count) == [4096, 2304])
        #expect(Data(base64Encoded: payloads.joined()) == Data(bytes))
    }

    @Test func virtualPlacement_deleteAndQuery_areTheProtocolsCommands() {
        #expect(
            KittyGraphics.virtualPlacement(id: 42, columns: 20, rows: 5)
                == "\(escape)_Ga=p,U=1,i=42,c=20,r=5,C=1,q=2\(escape)\\")
        #expect(KittyGraphics.delete(id: 42) == "\(escape)_Ga=d,d=I,i=42,q=2\(escape)\\")
        #expect(
            KittyGraphics.supportQuery(id: 31)
                == "\(escape)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(escape)\\\(escape)[c")
    }

    @Test func placeholderCell_isU10EEEEWithTheRowThenColumnMark_oneColumnWide() {
        let cell = KittyGraphics.placeholderCell(row: 1, column: 2)
        #expect(cell.unicodeScalars.map(\.value) == [0x10EEEE, 0x30D, 0x30E])
        #expect(
            KittyGraphics.placeholderCell(row: 0, column: 0).unicodeScalars.map(\.value) == [
                0x10EEEE, 0x305, 0x305,
            ])
        #expect(DisplayWidth.of(cell) == 1)
        #expect(String(cell).count == 1, "one grapheme")
        #expect(KittyGraphics.isPlaceholder(cell))
        #expect(!KittyGraphics.isPlaceholder("▀"))
        #expect(KittyGraphics.maximumSpan == 297)
        let last = KittyGraphics.placeholderCell(row: 296, column: 296)
        #expect(last.unicodeScalars.map(\.value) == [0x10EEEE, 0x1D244, 0x1D244])
    }

    @Test func placeholderLines_carryTheImageIDInTheForegroundOfEveryCell() {
        let lines = KittyGraphics.placeholderLines(id: 0x12_3456, columns: 3, rows: 2)
        #expect(lines.count == 2)
        let color = RGBColor(red: 0x12, green: 0x34, blue: 0x56)
        for (row, line) in lines.enumerated() {
            #expect(line.displayWidth == 3)
            #expect(line.spans.allSatisfy { $0.style == Style(foreground: color) })
            #expect(
                Array(line.plainText) == (0..<3).map { KittyGraphics.placeholderCell(row: row, column: $0) })
        }
    }

    @Test func registry_transmitsEachImageOnce_beforeItsFirstFrame_andDeletesThemAll() throws {
        let images = KittyImageRegistry(firstID: 500)
        let photo = try RGBImage(width: 4, height: 4, rgb: Array(repeating: 200, count: 48))
        let other = try RGBImage(width: 4, height: 4, rgb: Array(repeating: 10, count: 48))

        let lines = images.lines(for: photo, maxColumns: 4, maxLines: 2)
        #expect(lines == KittyGraphics.placeholderLines(id: 500, columns: 4, rows: 2))
        #expect(
            images.takePendingOutput()
                == KittyGraphics.transmit(photo, id: 500)
                + KittyGraphics.virtualPlacement(id: 500, columns: 4, rows: 2))
        #expect(images.takePendingOutput() == "", "taken once")

        #expect(images.lines(for: photo, maxColumns: 4, maxLines: 2) == lines, "the same image again")
        #expect(images.takePendingOutput() == "", "never sent twice")

        _ = images.lines(for: other, maxColumns: 4, maxLines: 2)
        _ = images.lines(for: photo, maxColumns: 2, maxLines: 1)  // another size: its own placement
        #expect(
            images.takePendingOutput()
                == KittyGraphics.transmit(other, id: 501)
                + KittyGraphics.virtualPlacement(id: 501, columns: 4, rows: 2)
                + KittyGraphics.transmit(photo, id: 502)
                + KittyGraphics.virtualPlacement(id: 502, columns: 2, rows: 1))
        #expect(images.farewellOutput == [500, 501, 502].map(KittyGraphics.delete(id:)).joined())
    }

    @Test func imageModes_takeTheSameCells() throws {
        let photo = try RGBImage(width: 8, height: 6, rgb: (0..<144).map { UInt8($0) })
        let blocks = ImageMode.blocks.render(photo, maxColumns: 6, maxLines: 4)
        let ascii = ImageMode.ascii.render(photo, maxColumns: 6, maxLines: 4)
        let kitty = ImageMode.kitty(KittyImageRegistry(firstID: 9)).render(photo, maxColumns: 6, maxLines: 4)
        #expect(blocks.map(\.displayWidth) == [6, 6, 6])
        #expect(ascii.map(\.displayWidth) == blocks.map(\.displayWidth))
        #expect(kitty.map(\.displayWidth) == blocks.map(\.displayWidth))
        #expect(blocks.allSatisfy { $0.plainText.allSatisfy { $0 == "▀" } })
        #expect(ascii.allSatisfy { $0.plainText.allSatisfy { HalfBlockArt.luminanceRamp.contains($0) } })
        #expect(ascii.allSatisfy { $0.spans.allSatisfy { $0.style == .plain } }, "ascii has no color")
        #expect(kitty.allSatisfy { $0.plainText.allSatisfy(KittyGraphics.isPlaceholder) })
    }
}
