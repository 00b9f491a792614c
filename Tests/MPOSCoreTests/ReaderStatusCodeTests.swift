import Foundation
import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct ReaderStatusCodeTests {
    @Test func coversEveryCodeFromSuccessToAccountTypeSelectionAndTheUpdateCodes() {
        #expect(ReaderStatusCode.allCases.count == 53)
        #expect(ReaderStatusCode.allCases.map(\.rawValue) == Array(0x0001...0x0032) + Array(0x0101...0x0103))
        #expect(ReaderStatusCode(rawValue: 0x0000) == nil)
        #expect(ReaderStatusCode(rawValue: 0x0033) == nil)
        #expect(ReaderStatusCode(rawValue: 0x0100) == nil)
        #expect(ReaderStatusCode(rawValue: 0x0104) == nil)
        #expect(ReaderStatusCode.allCases.filter(\.isUpdateCode) == [
            .updateNotEnoughSpace, .updateVerificationFailed, .updateWriteFailed,
        ])
    }

    @Test func namesTheUpdateCodesApartFromHandpoints() {
        #expect(ReaderStatusCode.updateNotEnoughSpace.description == "RL_UPDATE_NOT_ENOUGH_SPACE (0x0101)")
        #expect(ReaderStatusCode.updateVerificationFailed.eftName == "RL_UPDATE_VERIFICATION_FAILED")
        #expect(ReaderStatusCode.updateWriteFailed.message == "Update write failed")
        #expect(!ReaderStatusCode.commandNotAllowed.isUpdateCode)
    }

    @Test func pinsSpecificCodes() {
        #expect(ReaderStatusCode(rawValue: 0x0001) == .success)
        #expect(ReaderStatusCode.success.eftName == "EFT_SUCCESS")
        #expect(ReaderStatusCode(rawValue: 0x000B)?.eftName == "EFT_TRANS_NOT_ALLOWED")
        #expect(ReaderStatusCode(rawValue: 0x0019) == .pinInput)
        #expect(ReaderStatusCode.pinInput.message == "Waiting for PIN entry")
        #expect(ReaderStatusCode(rawValue: 0x001D)?.eftName == "EFT_SHARED_SECRET_INVALID")
        #expect(ReaderStatusCode(rawValue: 0x0028)?.message == "CARD BLOCKED")
        #expect(ReaderStatusCode(rawValue: 0x002C)?.eftName == "EFT_RESPONSE_PAYMENT_TIMEOUT")
        #expect(
            ReaderStatusCode(rawValue: 0x0031)?.message
                == "Operation cancelled, the battery is too low. Please charge.")
        #expect(ReaderStatusCode(rawValue: 0x0032)?.eftName == "EFT_ACCOUNT_TYPE_SELECTION")
    }

    @Test func keepsEveryDocumentedMessage() {
        #expect(
            ReaderStatusCode.success.messages == ["", "AUTH CODE #", "REFUND ACCEPTED", "REVERSAL ACCEPTED"])
        #expect(
            ReaderStatusCode.userCancelled.messages == ["TRANSACTION VOID", "User cancelled the transaction"])
        #expect(ReaderStatusCode.scannerEvent.messages == [""])
        #expect(ReaderStatusCode.posCancelled.messages == ["TRANSACTION VOID"])
        #expect(ReaderStatusCode.allCases.filter { $0.messages.count > 1 } == [.success, .userCancelled])
    }

    @Test func everyCodeHasANameAndAMeaning() {
        var names = Set<String>()
        for status in ReaderStatusCode.allCases {
            #expect(status.eftName.hasPrefix(status.isUpdateCode ? "RL_UPDATE_" : "EFT_"))
            #expect(!status.meaning.isEmpty)
            #expect(!status.messages.isEmpty)
            names.insert(status.eftName)
        }
        #expect(names.count == 53)
    }

    @Test func flagsUnusedCodesAndUnknownOutcomes() {
        #expect(
            ReaderStatusCode.allCases.filter { !$0.isCurrentlyUsed } == [
                .transactionNotAllowed, .cardInserted, .manualCardInput, .iccCardSwiped, .removeCard,
            ])
        #expect(
            ReaderStatusCode.allCases.filter(\.leavesOutcomeUnknown) == [
                .sendingError, .receivingError, .responsePaymentTimeout,
            ])
    }

    @Test func describesItselfByNameAndHexCode() throws {
        #expect(ReaderStatusCode.pinInput.description == "EFT_PIN_INPUT (0x0019)")
        #expect(ReaderStatusCode.success.description == "EFT_SUCCESS (0x0001)")
        #expect(
            String(decoding: try JSONEncoder().encode(ReaderStatusCode.cardBlocked), as: UTF8.self) == "40")
    }
}
