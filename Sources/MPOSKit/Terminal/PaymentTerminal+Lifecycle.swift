import GatewayAPI
import MPOSCore
import ReaderLink

/// Start, warm-up and reset, as the Adyen and ECP SDKs have them.
extension PaymentTerminal {
    /// What the terminal is connected to and doing: logged in, offline-only, its payment
    /// device, busy.
    public var status: TerminalStatus {
        get async {
            let device: TerminalStatus.Device =
                if let networked = state.networked {
                    .networkedTerminal(poiID: networked.link.terminal.poiID)
                } else if await reader.link != nil {
                    .cardReader(await reader.info)
                } else {
                    .none
                }
            return TerminalStatus(
                isLoggedIn: await client.isLoggedIn, isOfflineOnly: state.isOfflineOnly, device: device,
                isBusy: gate.isBusy)
        }
    }

    /// Gets the terminal ready to take a payment without delay: makes sure the gateway
    /// session is valid (logging in when there is none or the gateway ended it, which also
    /// finishes what the journal left unfinished), reads and keeps the merchant, and asks a
    /// connected reader for its description to check the link.
    ///
    /// Call it when the app starts and when it returns to the foreground.
    ///
    /// ```swift
    /// let report = try await terminal.warmUp()
    /// print(report.merchant.name, report.reader?.serialNumber ?? "no reader")
    /// ```
    ///
    /// - Throws: the errors of ``login()``; ``MPOSError/gatewayUnreachable``;
    ///   ``MPOSError/readerLinkFailed`` when the connected reader does not answer.
    @discardableResult
    public func warmUp() async throws(MPOSError) -> WarmUpReport {
        var loggedIn = false
        var merchant: MerchantInfo?
        if await client.isLoggedIn {
            let renewals = await client.renewals
            do {
                merchant = try await client.refreshMerchant()
                // A session the gateway had ended was renewed on the way.
                loggedIn = await client.renewals != renewals
            } catch where error.code == MPOSError.Code.gatewayUnauthorized {
                // The credentials no longer open a session (a password reset): log in afresh.
            }
        }
        if merchant == nil {
            try await login()
            loggedIn = true
            merchant = await client.merchant
        }
        let info: MerchantInfo
        if let merchant { info = merchant } else { info = try await client.refreshMerchant() }
        var reader: DeviceInfo?
        if await self.reader.link != nil, !gate.isBusy { reader = try await self.reader.deviceInfo() }
        return WarmUpReport(loggedIn: loggedIn, merchant: info, reader: reader)
    }

    /// Starts afresh, as for another user: disconnects the reader, ends the gateway session
    /// (telling the gateway when it can), forgets the merchant, ends every stream made by
    /// ``TerminalEvents/subscribe(_:)`` and removes the event handlers. The journal stays: payments an
    /// earlier session left unfinished are finished by the next ``login()``.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` while an operation runs.
    public func reset() async throws(MPOSError) {
        guard !gate.isBusy else { throw MPOSError.terminalBusy }
        await disconnect()
        await client.endSession()
        hub.reset()
    }

    /// Starts afresh for another user on this terminal (the ECP seed's reset, then initialize
    /// with the next user's token): does what ``reset()`` does, then logs in as `credentials`
    /// from the next ``login()`` on.
    ///
    /// What the previous user left is never lost. When the journal holds no unfinished attempt
    /// and the offline store no sale waiting to be forwarded, the journal is emptied and
    /// unbound, so the next user may be another merchant's (who then sees nothing of the
    /// previous one's). Otherwise it stays bound: a user of the same merchant finishes that work
    /// at login, and another merchant's login is refused with
    /// ``MPOSError/journalOwnedElsewhere`` until the previous merchant's has been finished.
    ///
    /// ```swift
    /// try await terminal.reset(switchingTo: .login(user: "evening-shift", password: password))
    /// try await terminal.login()
    /// ```
    ///
    /// - Returns: whether the journal was emptied (false when work in it waits for its merchant).
    /// - Throws: ``MPOSError/terminalBusy`` while an operation runs; ``MPOSError/journalFailed``
    ///   or ``MPOSError/offlineStoreFailed`` when they cannot be read.
    @discardableResult
    public func reset(switchingTo credentials: GatewayCredentials) async throws(MPOSError) -> Bool {
        try await reset()
        await client.replaceCredentials(credentials)
        state.wentOnline()
        await offline.setSession(await recovery.refusal.map { .journalRefused($0) } ?? .gateway)
        let store = try await offline.store.contents()
        guard store.pending.isEmpty, store.damagedSlots.isEmpty else { return false }
        guard try await recovery.releaseIfSettled() else { return false }
        await offline.setSession(.gateway)
        return true
    }
}
