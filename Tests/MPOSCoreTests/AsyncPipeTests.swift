import Testing

@testable import MPOSCore

/// The package's specialized async queue: order, finishing, waiting consumers, cancellation,
/// many producers, and its `AsyncStream` face.
@Suite struct AsyncPipeTests {
    @Test func deliversInOrderThenEndsAfterFinish() async {
        let pipe = AsyncPipe<Int>()
        for value in 1...200 { #expect(pipe.yield(value)) }
        pipe.finish()
        #expect(!pipe.yield(201))
        var received: [Int] = []
        while let value = await pipe.next() { received.append(value) }
        #expect(received == Array(1...200))
        #expect(await pipe.next() == nil)
        #expect(pipe.isFinished)
    }

    @Test func aWaitingConsumerGetsTheNextElement() async {
        let pipe = AsyncPipe<String>()
        let consumer = Task { await pipe.next() }
        // Whether the consumer waits already or not, it gets the element.
        await Task.yield()
        pipe.yield("card inserted")
        #expect(await consumer.value == "card inserted")
    }

    @Test func finishWakesAWaitingConsumerWithNil() async {
        let pipe = AsyncPipe<Int>()
        let consumer = Task { await pipe.next() }
        await Task.yield()
        pipe.finish()
        #expect(await consumer.value == nil)
    }

    @Test func cancellingTheConsumerEndsItsWaitAndKeepsThePipeUsable() async {
        let pipe = AsyncPipe<Int>()
        let consumer = Task { await pipe.next() }
        await Task.yield()
        consumer.cancel()
        #expect(await consumer.value == nil)
        pipe.yield(7)
        #expect(await pipe.next() == 7)
    }

    @Test func aConsumerCancelledBeforeItWaitsGetsNil() async {
        let pipe = AsyncPipe<Int>()
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await pipe.next()
        }
        #expect(await consumer.value == nil)
    }

    @Test func manyProducersLoseNothingAndKeepEachProducersOrder() async {
        let pipe = AsyncPipe<(producer: Int, sequence: Int)>()
        let producers = 8, perProducer = 500
        let consumer = Task {
            var seen = Array(repeating: -1, count: producers)
            var count = 0
            while let item = await pipe.next() {
                #expect(item.sequence == seen[item.producer] + 1)
                seen[item.producer] = item.sequence
                count += 1
                if count == producers * perProducer { break }
            }
            return count
        }
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for sequence in 0..<perProducer { pipe.yield((producer, sequence)) }
                }
            }
        }
        #expect(await consumer.value == producers * perProducer)
    }

    @Test func aConsumerThatNeverCatchesUpDoesNotKeepTakenElements() async {
        let pipe = AsyncPipe<[UInt8]>()
        // Ten always queued: the queue never drains, so only compaction frees what was taken.
        for value in 0..<10 { pipe.yield([UInt8(value)]) }
        for round in 0..<1_000 {
            pipe.yield([UInt8(truncatingIfNeeded: round)])
            #expect(await pipe.next() != nil)
        }
        #expect(pipe.buffer.count - pipe.head == 10)
        // Without compaction the buffer would hold all 1,010 elements ever queued.
        #expect(pipe.buffer.count <= 128)
    }

    @Test func aBoundedPipeKeepsTheNewestWhileNobodyTakes() async {
        let pipe = AsyncPipe<Int>(keepingNewest: 3)
        for value in 1...500 { pipe.yield(value) }
        pipe.finish()
        // The dropped ones are let go along the way, not kept until someone reads.
        #expect(pipe.buffer.count <= 64 * 2 + 3)
        var received: [Int] = []
        while let value = await pipe.next() { received.append(value) }
        #expect(received == [498, 499, 500])
    }

    @Test func itsStreamReadsTheSamePipe() async {
        let pipe = AsyncPipe<Int>()
        let stream = pipe.stream()
        for value in 1...3 { pipe.yield(value) }
        pipe.finish()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    /// A consumer on an actor stays there: each element resumes it on the actor.
    @Test func aConsumerOnAnActorReceivesOnIt() async {
        actor Collector {
            var values: [Int] = []
            func drain(_ pipe: AsyncPipe<Int>) async {
                while let value = await pipe.next() {
                    assertIsolated()
                    values.append(value)
                }
            }
        }
        let collector = Collector()
        let pipe = AsyncPipe<Int>()
        let draining = Task { await collector.drain(pipe) }
        for value in 0..<100 { pipe.yield(value) }
        pipe.finish()
        await draining.value
        #expect(await collector.values == Array(0..<100))
    }
}
