import Foundation

extension PaymentReceipt {
    /// `copy` as an ESC/POS print job for `profile`: the optional `logo` centred at the top,
    /// then exactly the lines of ``text(_:width:timeZone:)`` at the profile's columns, the
    /// merchant's name in bold and double height, the copy, outcome and verification in
    /// bold, the cardholder's pad signature (a raster above the merchant copy's signature
    /// line), a QR code carrying the transaction id, and a cut (or a feed on a printer without
    /// a cutter).
    ///
    /// ```swift
    /// let job = receipt.escPos(.customer, profile: .paper58mm)
    /// try await connection.send(job)
    /// ```
    ///
    /// Characters the code page lacks are transliterated or printed as `"?"`; use
    /// ``escPosJob(_:profile:logo:timeZone:)`` to see which.
    public func escPos(
        _ copy: ReceiptCopy, profile: PrinterProfile, logo: MonochromeBitmap? = nil,
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) -> [UInt8] {
        escPosJob(copy, profile: profile, logo: logo, timeZone: timeZone).bytes
    }

    /// The job of ``escPos(_:profile:logo:timeZone:)`` with its encoder, whose
    /// ``EscPosEncoder/unmappedCharacters`` lists what printed as `"?"`.
    ///
    /// Styling never changes a line's columns: the title is double height but single width,
    /// and centring comes from the text layout's own spaces, so the printed lines are the
    /// text rendering's lines. A logo wider than the paper is cropped to its printable width.
    public func escPosJob(
        _ copy: ReceiptCopy, profile: PrinterProfile, logo: MonochromeBitmap? = nil,
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) -> EscPosEncoder {
        var job = EscPosEncoder(profile: profile)
        job.initialize()
        job.selectCodePage()
        if let logo {
            job.align(.center)
            job.rasterImage(logo.cropped(toWidth: profile.printableDots))
            job.align(.left)
        }
        for line in textLines(copy, width: profile.columns, timeZone: timeZone) {
            // A signature that cannot be drawn leaves the line for a pen: the receipt still prints.
            if line.signsHere, let image = try? signature?.bitmap() {
                // The pad's signature above the line the merchant checks it against.
                job.align(.center)
                job.rasterImage(image.cropped(toWidth: profile.printableDots))
                job.align(.left)
            }
            switch line.style {
            case .plain:
                job.line(line.text)
            case .title:
                job.bold(true)
                job.size(width: 1, height: 2)
                job.line(line.text)
                job.size(width: 1, height: 1)
                job.bold(false)
            case .emphasis:
                job.bold(true)
                job.line(line.text)
                job.bold(false)
            }
        }
        // An id too long for a QR code (none the gateway issues) prints without one.
        if let id = transactionID?.rawValue, (1...EscPosEncoder.maximumQRDataCount).contains(id.utf8.count) {
            job.align(.center)
            try? job.qrCode(Array(id.utf8))  // Cannot fail: the length is checked above.
            job.align(.left)
        }
        job.cut()
        return job
    }
}
