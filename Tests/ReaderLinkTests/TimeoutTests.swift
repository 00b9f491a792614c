import Foundation
import Testing

@testable import ReaderLink
import MPOSTestSupport

@Suite(.timeLimit(.minutes(2)))
struct TimeoutTests {
    @Test func pairingTimesOutOnTheInjectedClock() async throws {
        let clock = ManualClock()
        let (sdkSide, silent) = InProcessTransport.makePair()
        let opening = Task {
            try await ReaderConnection.open(
                transport: sdkSide, secret: secretA, timeout: .seconds(10), clock: clock)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        await #expect(throws: ReaderLinkError.timeout) { try await opening.value }
        for await _ in silent.incoming {}  // the SDK closed the link
    }

    @Test func requestTimesOutAndALateAnswerIsIgnored() async throws {
        let clock = ManualClock()
        let (sdkSide, readerSide) = InProcessTransport.makePair(maximumWriteLength: 20)
        let accepting = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA) }
        let sdk = try await ReaderConnection.open(
            transport: sdkSide, secret: secretA, timeout: .seconds(5), clock: clock)
        let reader = try await accepting.value
        await clock.waitForSleepers(0)
        #expect(clock.sleeperCount == 0)  // the pairing timer was cancelled

        let slow = Task { try await sdk.request(.getDeviceInfo) }
        var requests = reader.requests.makeAsyncIterator()
        let first = try #require(await requests.next())
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        await #expect(throws: ReaderLinkError.timeout) { try await slow.value }
        try await reader.respond(to: first.id, with: .ack)  // too late: ignored

        let quick = Task { try await sdk.request(.getBattery, timeout: .seconds(60)) }
        let second = try #require(await requests.next())
        #expect(second.message == .getBattery)
        let battery = BatteryStatus(percentage: 1, isCharging: true, hasExternalPower: true)
        try await reader.respond(to: second.id, with: .battery(battery))
        #expect(try await quick.value == .battery(battery))
        await sdk.close()
    }

    @Test func keepAlivePingsASilentReaderAndClosesWhenItIsDead() async throws {
        let clock = ManualClock()
        let (sdkSide, relaySDK) = InProcessTransport.makePair()
        let (relayReader, readerSide) = InProcessTransport.makePair()
        // The reader's frames 0 and 1 (hello reply, paired) pass; after the first pong it goes dead.
        let tasks = [relay(relaySDK, relayReader, .none), relay(relayReader, relaySDK, .dropFrom(frame: 3))]
        let accepting = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA) }
        let sdk = try await ReaderConnection.open(
            transport: sdkSide, secret: secretA, timeout: .seconds(5), clock: clock, keepAlive: .seconds(15))
        let reader = try await accepting.value

        await clock.waitForSleeper(until: .seconds(15))
        clock.advance(by: .seconds(15))  // silent interval: ping, answered by the reader (frame 2)
        await clock.waitForSleeper(until: .seconds(30))  // the pong arrived; the next interval runs
        #expect(await sdk.closeReason == nil)
        clock.advance(by: .seconds(15))  // the pong was traffic: no ping this time
        await clock.waitForSleeper(until: .seconds(45))
        clock.advance(by: .seconds(15))  // ping again; the pong (frame 3) is lost
        await clock.waitForSleeper(until: .seconds(50))
        clock.advance(by: .seconds(5))
        for await _ in sdk.events {}
        #expect(await sdk.closeReason == .timeout)
        await reader.close()
        for task in tasks { await task.value }
    }

    @Test func keepAliveSpeaksToAChattyReaderSoTheReaderKeepsHearingALiveSDK() async throws {
        let clock = ManualClock()
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        // Unstructured: the reader side pairs while the SDK side opens below.
        let accepting = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA, clock: clock) }
        let sdk = try await ReaderConnection.open(
            transport: sdkSide, secret: secretA, timeout: .seconds(5), clock: clock, keepAlive: .seconds(15))
        let reader = try await accepting.value
        var events = sdk.events.makeAsyncIterator()
        // The reader reports something in every interval; the idle SDK sends no request.
        for interval in 1...3 {
            try await reader.emit(.displayPrompt(text: "Welcome", status: .success))
            _ = await events.next()
            await clock.waitForSleeper(until: .seconds(15 * interval))
            clock.advance(by: .seconds(15))
        }
        // At 45 s the SDK had sent nothing for an interval: it pinged, and the reader heard it.
        await clock.waitForSleeper(until: .seconds(60))
        #expect(await reader.silence < .seconds(15))
        #expect(await sdk.closeReason == nil)
        await sdk.close()
    }

    @Test func theReaderCountsSilenceOnlyWhileTheSDKWaitsForNothing() async throws {
        let clock = ManualClock()
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        // Unstructured: the reader side pairs while the SDK side opens below.
        let accepting = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA, clock: clock) }
        let sdk = try await ReaderConnection.open(transport: sdkSide, secret: secretA)
        let reader = try await accepting.value
        var requests = reader.requests.makeAsyncIterator()
        // Unstructured: the request waits while the test holds the reader's answer back.
        let verifying = Task { try await sdk.request(.updateVerify, timeout: .seconds(120)) }
        let request = try #require(await requests.next())
        clock.advance(by: .seconds(60))
        #expect(await reader.silence == .zero)  // the SDK waits for the reader's answer
        try await reader.respond(to: request.id, with: .ack)
        #expect(try await verifying.value == .ack)
        clock.advance(by: .seconds(1))
        #expect(await reader.silence == .seconds(61))
        await sdk.close()
    }
}
