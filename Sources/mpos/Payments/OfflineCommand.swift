import ArgumentParser
import Foundation
import MPOSCore
import MPOSKit

/// `mpos offline list|forward`: the sales approved offline next to the journal.
struct OfflineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline", abstract: "List or forward the sales the card approved offline.",
        discussion: """
            Sales taken with `mpos sale --offline-allowed` while the gateway could not be reached are \
            stored, encrypted, next to the journal (--journal PATH.offline, key in PATH.offline-key, \
            mode 0600). See docs/offline-payments.md.
            """,
        subcommands: [OfflineListCommand.self, OfflineForwardCommand.self])
}

/// `mpos offline list --journal PATH [--json]`
struct OfflineListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored offline sales (waiting or forwarded); needs no gateway.",
        discussion: "Exit codes: 0, or 1 when a stored record fails its check (OFFLINE_DATA_TAMPERING).")

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        // The store lives next to the journal: --journal, else the journal last used at --gateway.
        let journal: String
        if let given = try JournalLocation.explicit(options) {
            journal = given
        } else if let gateway = options.gateway, let used = try JournalChoice.lastUsed(at: gateway) {
            journal = used
        } else {
            throw CLIFailure("give --journal PATH: the offline store lives next to the journal")
        }
        // No session: listing reads the local store only.
        let terminal: PaymentTerminal
        do {
            terminal = try PaymentTerminal(
                environment: URL(string: options.gateway ?? "http://127.0.0.1")!,
                credentials: .login(user: "", password: ""), journalPath: journal)
        } catch { throw CLIFailure(error.message) }
        let listing: OfflineStoreListing
        do { listing = try await terminal.offline.list() } catch { throw CLIFailure(error.message) }
        OfflineOutput.print(listing, json: options.json)
        if !listing.damagedSlots.isEmpty { throw OfflineOutput.tampering(listing.damagedSlots) }
    }
}

/// `mpos offline forward --journal PATH --gateway URL …`
struct OfflineForwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Forward the stored offline sales to the gateway now, in stored order, each once.",
        discussion: """
            Exit codes: 0 when every intact record is forwarded; 1 when the gateway cannot be reached \
            (what is left stays stored) or a stored record fails its check (OFFLINE_DATA_TAMPERING; it \
            is never forwarded).
            """)

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        let json = options.json
        try await TerminalSession.with(options, needsReader: false, showEvents: false) { terminal in
            // Each outcome as it is marked, so an operator (or a kill) sees how far it got.
            terminal.events.addHandler([.transaction]) { event in
                guard !json, case .offlineForwarded(let outcome) = event else { return }
                CLIOutput.line("forwarded \(outcome.id.uuidString)  \(OfflineOutput.state(outcome))")
            }
            let report: OfflineForwardReport
            do throws(MPOSError) { report = try await terminal.offline.forward() } catch {
                throw CLIFailure(error.message)
            }
            let listing: OfflineStoreListing
            do throws(MPOSError) { listing = try await terminal.offline.list() } catch {
                throw CLIFailure(error.message)
            }
            OfflineOutput.print(listing, json: options.json)
            if !report.damagedSlots.isEmpty { throw OfflineOutput.tampering(report.damagedSlots) }
        }
    }
}

/// How the offline commands print.
enum OfflineOutput {
    static func print(_ listing: OfflineStoreListing, json: Bool) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            let data =
                (try? encoder.encode(JSONListing(listing.payments, damagedSlots: listing.damagedSlots)))
                ?? Data()
            CLIOutput.line(String(decoding: data, as: UTF8.self))
            return
        }
        for payment in listing.payments {
            let state = payment.forwarded.map(Self.state) ?? "WAITING"
            CLIOutput.line(
                "\(payment.id.uuidString)  \(Receipt.format(payment.amount, payment.currency))  "
                    + "\(payment.maskedPAN ?? "")  \(state)")
        }
    }

    /// `APPROVED txn_…` or `DECLINED-AFTER-THE-FACT txn_…`.
    static func state(_ outcome: OfflineForwardOutcome) -> String {
        (outcome.approved ? "APPROVED " : "DECLINED-AFTER-THE-FACT ")
            + (outcome.transactionID?.rawValue ?? "")
    }

    static func tampering(_ slots: [Int]) -> CLIFailure {
        CLIFailure(
            "OFFLINE_DATA_TAMPERING: \(slots.count) stored record(s) failed their check and are never forwarded "
                + "(slots \(slots.map(String.init).joined(separator: ", ")))")
    }

    struct JSONListing: Encodable {
        let payments: [StoredOfflinePayment]
        let damagedSlots: [Int]

        init(_ payments: [StoredOfflinePayment], damagedSlots: [Int]) {
            self.payments = payments
            self.damagedSlots = damagedSlots
        }
    }
}
