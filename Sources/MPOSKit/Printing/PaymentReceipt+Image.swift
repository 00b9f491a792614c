import Foundation
import PrinterCodePages

extension PaymentReceipt {
    /// `copy` as a 1-bit image, for printers and apps that take only images: the lines of
    /// ``text(_:width:timeZone:)`` drawn in a 5×7 dot font, each character in a cell of 6×8
    /// dots, each dot `scale`×`scale`. At the defaults (32 characters, scale 2) the image is 384
    /// dots wide, the printable width of a 58 mm printer at 203 dpi; ``MonochromeBitmap/pbm``
    /// gives it as a file.
    ///
    /// ```swift
    /// let image = try receipt.image(.customer)
    /// try image.pbm.write(to: url)
    /// ```
    ///
    /// - Throws: ``MPOSError/invalidArgument`` when `scale` is not 1...8.
    public func image(
        _ copy: ReceiptCopy, width: Int = defaultWidth, scale: Int = 2,
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) throws(MPOSError) -> MonochromeBitmap {
        guard (1...8).contains(scale) else {
            throw MPOSError.invalidArgument.withMessage(
                "The receipt image's scale is \(scale); 1 to 8 is allowed.")
        }
        let lines = textLines(copy, width: width, timeZone: timeZone).map { Array($0.text) }
        let cellWidth = 6 * scale, cellHeight = 8 * scale
        let columns = lines.map(\.count).max() ?? 1
        return try MonochromeBitmap(
            width: max(1, columns) * cellWidth, height: max(1, lines.count) * cellHeight
        ) {
            x, y in
            let line = y / cellHeight, column = x / cellWidth
            let dotColumn = x % cellWidth / scale, dotRow = y % cellHeight / scale
            guard line < lines.count, column < lines[line].count, dotColumn < 5, dotRow < 7 else {
                return false
            }
            return Font5x7.columns(for: lines[line][column])[dotColumn] >> dotRow & 1 == 1
        }
    }
}

extension MonochromeBitmap {
    /// The bitmap as a binary portable bitmap (PBM, `P4`): a header with the size, then the
    /// rows as they are, since PBM also packs eight dots a byte, leftmost first, 1 for black.
    public var pbm: Data {
        var data = Data("P4\n\(width) \(height)\n".utf8)
        data.append(contentsOf: bytes)
        return data
    }
}
