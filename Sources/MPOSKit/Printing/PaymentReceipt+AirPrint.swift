#if canImport(UIKit)
    import Foundation
    import UIKit

    extension PaymentReceipt {
        /// Shows the system print panel (AirPrint) for `copy` rendered as
        /// ``html(_:timeZone:)``, the Accept seed's AirPrint printing.
        ///
        /// - Returns: whether the job was sent to a printer (false when the user cancelled).
        /// - Throws: the print system's error.
        @MainActor
        public func airPrint(_ copy: ReceiptCopy, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!)
            async throws -> Bool
        {
            let info = UIPrintInfo(dictionary: nil)
            info.outputType = .general
            info.jobName = "Receipt \(transactionID?.rawValue ?? "")"
            let controller = UIPrintInteractionController.shared
            controller.printInfo = info
            controller.printFormatter = UIMarkupTextPrintFormatter(markupText: html(copy, timeZone: timeZone))
            return try await withCheckedThrowingContinuation { continuation in
                _ = controller.present(animated: true) { _, completed, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: completed)
                    }
                }
            }
        }
    }
#endif
