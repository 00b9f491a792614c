import ArgumentParser
import ReaderLink

/// `mpos reader emulate --customer-answer ANSWER`: what the customer answers to a question the
/// SDK asks on the reader's screen.
enum CustomerAnswerArgument {
    /// `yes`, `no`, `choice:N` (zero-based), `text:WORDS` (an e-mail address, a phone number
    /// or free text), `skip` (the customer presses cancel) or `timeout` (no answer in time).
    static func parse(_ text: String) throws -> CustomerInput {
        switch text.lowercased() {
        case "yes": return .yesNo(true)
        case "no": return .yesNo(false)
        case "skip": return .skipped
        case "timeout": return .timedOut
        default: break
        }
        if text.lowercased().hasPrefix("choice:") {
            guard let index = UInt8(text.dropFirst("choice:".count)), index < 6 else {
                throw ValidationError("--customer-answer \(text): a choice is choice:0 to choice:5")
            }
            return .choice(index: index)
        }
        if text.lowercased().hasPrefix("text:") {
            let typed = String(text.dropFirst("text:".count))
            guard (1...120).contains(typed.count) else {
                throw ValidationError("--customer-answer text: takes 1 to 120 characters")
            }
            return .text(typed)
        }
        throw ValidationError("--customer-answer must be yes, no, choice:N, text:WORDS, skip or timeout, not '\(text)'")
    }
}
