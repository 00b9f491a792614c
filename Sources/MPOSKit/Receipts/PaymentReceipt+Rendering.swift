import Foundation

extension PaymentReceipt {
    /// The characters per line of ``text(_:width:timeZone:)`` by default (a 58 mm printer).
    public static let defaultWidth = 32

    /// `copy` as plain text for a receipt printer or a text message.
    ///
    /// ```swift
    /// print(receipt.text(.merchant))
    /// ```
    ///
    /// - Parameters:
    ///   - width: characters per line (at least 20).
    ///   - timeZone: the zone of the printed time; UTC by default.
    public func text(
        _ copy: ReceiptCopy, width: Int = defaultWidth, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) -> String {
        textLines(copy, width: width, timeZone: timeZone).map(\.text).joined(separator: "\n")
    }

    /// One line of the text rendering and the row style it came from, so that a printer
    /// can style the very lines ``text(_:width:timeZone:)`` shows.
    struct TextLine: Hashable {
        /// How a printer may emphasise a line without changing its columns.
        enum Style: Hashable {
            case plain
            case title
            case emphasis
        }
        var text: String
        var style: Style
        /// The line the cardholder signs on: a pad signature prints above it.
        var signsHere = false
    }

    /// The lines of ``text(_:width:timeZone:)``, each with its style.
    func textLines(_ copy: ReceiptCopy, width: Int, timeZone: TimeZone) -> [TextLine] {
        let width = max(20, width)
        var lines: [TextLine] = []
        func plain(_ text: String) { lines.append(TextLine(text: text, style: .plain)) }
        func centered(_ text: String, _ style: TextLine.Style = .plain) {
            lines.append(
                TextLine(
                    text: String(repeating: " ", count: max(0, (width - text.count) / 2)) + text, style: style
                ))
        }
        for row in rows(copy, timeZone: timeZone) {
            switch row {
            case .title(let text): centered(text, .title)
            case .emphasis(let text): centered(text, .emphasis)
            case .centered(let text): centered(text)
            case .pair(let label, let value):
                if label.count + 1 + value.count <= width {
                    plain(label + String(repeating: " ", count: width - label.count - value.count) + value)
                } else {
                    plain(label)
                    plain(String(repeating: " ", count: max(0, width - value.count)) + value)
                }
            case .rule:
                plain(String(repeating: "-", count: width))
            case .signatureLine:
                plain("")
                plain("")
                lines.append(TextLine(text: "X" + String(repeating: "_", count: width - 1), style: .plain, signsHere: true))
                centered("Cardholder signature")
            }
        }
        return lines
    }

    /// `copy` as a standalone HTML document (for an e-mail or a web view). Every value is
    /// escaped, so a merchant name such as `"Bob's <Bar> & Grill"` shows as written and
    /// cannot add markup.
    ///
    /// - Parameter timeZone: the zone of the printed time; UTC by default.
    public func html(_ copy: ReceiptCopy, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!) -> String {
        let e = Self.escapeHTML
        var body: [String] = []
        for row in rows(copy, timeZone: timeZone) {
            switch row {
            case .title(let text): body.append("<h1>\(e(text))</h1>")
            case .centered(let text): body.append("<p class=\"center\">\(e(text))</p>")
            case .emphasis(let text): body.append("<p class=\"center strong\">\(e(text))</p>")
            case .pair(let label, let value):
                body.append("<div class=\"pair\"><span>\(e(label))</span><span>\(e(value))</span></div>")
            case .rule: body.append("<hr>")
            case .signatureLine:
                body.append("<div class=\"signature\">Cardholder signature</div>")
            }
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(e(merchantName)) - \(copy == .customer ? "customer copy" : "merchant copy")</title>
            <style>
            body { font-family: monospace; max-width: 26em; margin: 1em auto; }
            h1 { font-size: 1.2em; text-align: center; }
            .center { text-align: center; margin: 0.2em 0; }
            .strong { font-weight: bold; }
            .pair { display: flex; justify-content: space-between; gap: 1em; }
            .signature { margin-top: 3em; border-top: 1px solid #000; text-align: center; }
            </style>
            </head>
            <body>
            <div class="receipt \(copy.rawValue)-copy">
            \(body.joined(separator: "\n"))
            </div>
            </body>
            </html>
            """
    }

    /// `text` with `& < > " '` replaced by entities.
    static func escapeHTML(_ text: String) -> String { MarkupEscaping.escape(text) }
}
