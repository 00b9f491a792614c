import Foundation
import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct MPOSErrorTests {
    private let coreErrors: [MPOSError] = [
        .invalidAmount, .tooManyDecimals, .negativeAmount, .amountOverflow, .currencyHasNoMinorUnits,
        .unknownCurrency, .currencyMismatch, .invalidIdentifier,
    ]

    @Test func coreCodesAreStableAndDistinct() {
        #expect(coreErrors.map(\.code) == [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008])
        #expect(MPOSError.Code.invalidAmount == 1001)
        #expect(MPOSError.Code.invalidIdentifier == 1008)
    }

    @Test func coreErrorsAreIntegrationErrorsWithMessages() {
        for error in coreErrors {
            #expect(error.category == .integration)
            #expect(!error.message.isEmpty)
            #expect((1000...1099).contains(error.code))
        }
        #expect(MPOSError.invalidAmount.customerMessage != nil)
        #expect(MPOSError.currencyMismatch.customerMessage == nil)
    }

    @Test func derivesTheCategoryFromTheCodeRange() {
        #expect(MPOSError.Category(code: 1000) == .integration)
        #expect(MPOSError.Category(code: 1999) == .integration)
        #expect(MPOSError.Category(code: 2000) == .cardholder)
        #expect(MPOSError.Category(code: 3500) == .reader)
        #expect(MPOSError.Category(code: 4051) == .gateway)
        #expect(MPOSError.Category(code: 5001) == .storage)
        #expect(MPOSError.Category(code: 9999) == .network)
        #expect(MPOSError.Category(code: 6000) == .unassigned)
        #expect(MPOSError.Category(code: 999) == .unassigned)
        #expect(MPOSError.Category(code: 10000) == .unassigned)
        #expect(MPOSError.Category(code: -1) == .unassigned)
        #expect(MPOSError.Category.unassigned.codes == nil)
        #expect(MPOSError.Category.network.codes == 9000...9999)
    }

    @Test func otherModulesCanDefineTheirOwnCodes() {
        let error = MPOSError(
            code: 3101, message: "No card reader is connected.",
            customerMessage: "Connect the card reader and try again.")
        #expect(error.category == .reader)
        #expect(error.customerMessage == "Connect the card reader and try again.")
        #expect(error.description == "MPOSError 3101 (reader): No card reader is connected.")
    }

    @Test func comparesAndHashesByCodeOnly() {
        let detailed = MPOSError.amountOverflow.withMessage("More detail.")
        #expect(detailed == .amountOverflow)
        #expect(detailed.message == "More detail.")
        #expect(detailed.customerMessage == MPOSError.amountOverflow.customerMessage)
        #expect(Set([detailed, .amountOverflow, .negativeAmount]).count == 2)
        #expect(MPOSError(code: 1001, message: "a") != MPOSError(code: 1002, message: "a"))
    }

    @Test func catchesByConstantFromUntypedThrows() {
        func fail() throws { throw MPOSError.negativeAmount.withMessage("specific") }
        var caught = false
        do {
            try fail()
        } catch MPOSError.amountOverflow {
            Issue.record("matched the wrong code")
        } catch MPOSError.negativeAmount {
            caught = true
        } catch {
            Issue.record("did not match: \(error)")
        }
        #expect(caught)
        #expect(!(MPOSError.negativeAmount ~= (CocoaError(.fileNoSuchFile) as any Error)))
    }

    @Test func catchesByCodeFromTypedThrows() {
        var caught: Int?
        do {
            _ = try Money.parse("1.999", currency: .eur)
        } catch let error where error.code == MPOSError.Code.tooManyDecimals {
            caught = error.code
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(caught == 1002)
    }

    @Test func switchesOverCodesAndCategories() {
        func classify(_ error: MPOSError) -> String {
            switch error {
            case MPOSError.Code.amountOverflow: "overflow"
            case let error where error.category == .network: "network"
            case .invalidAmount: "format"
            default: "other"
            }
        }
        #expect(classify(.amountOverflow) == "overflow")
        #expect(classify(MPOSError(code: 9001, message: "offline")) == "network")
        #expect(classify(.invalidAmount) == "format")
        #expect(classify(.currencyMismatch) == "other")
    }

    @Test func codesAsCodeAndMessages() throws {
        let error = MPOSError(code: 4051, message: "Declined by issuer.", customerMessage: "Card declined.")
        let data = try JSONEncoder().encode(error)
        let decoded = try JSONDecoder().decode(MPOSError.self, from: data)
        #expect(decoded.code == 4051)
        #expect(decoded.message == "Declined by issuer.")
        #expect(decoded.customerMessage == "Card declined.")
    }
}
