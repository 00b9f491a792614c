import Foundation
import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct TransactionIDTests {
    @Test func acceptsPrintableASCIIUpTo128Characters() throws {
        #expect(TransactionID(rawValue: "TX-2024/10:ABC")?.rawValue == "TX-2024/10:ABC")
        #expect(TransactionID(rawValue: String(repeating: "9", count: 128)) != nil)
        #expect(try TransactionID(validating: "1").description == "1")
    }

    @Test(arguments: ["", String(repeating: "9", count: 129), "a b", "tab\t", "ü", "x\u{7F}"])
    func rejectsMalformedIDs(text: String) {
        #expect(TransactionID(rawValue: text) == nil)
        #expect(throws: MPOSError.invalidIdentifier) { try TransactionID(validating: text) }
    }

    @Test func codesAsAValidatedString() throws {
        let id = TransactionID(rawValue: "abc")!
        #expect(try JSONDecoder().decode(TransactionID.self, from: JSONEncoder().encode(id)) == id)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TransactionID.self, from: Data(#""""#.utf8))
        }
    }
}
