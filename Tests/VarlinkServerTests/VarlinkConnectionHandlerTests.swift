import AppStateCore
import AppStateIPC
import NIOCore
import NIOEmbedded
import ServicePorts
import TestSupport
import XCTest

@testable import VarlinkServer

/// One connection through its real pipeline on an `EmbeddedChannel`: framing, immediate
/// answers, batches to the processor, back-pressure, streams, half-close, limits and draining.
final class VarlinkConnectionHandlerTests: AppStateTestCase {
    private typealias Harness = ConnectionHarness

    // MARK: Ordering and batching

    @MainActor func testReads_whenNothingIsInFlight_thenAnsweredOnTheEventLoopWithoutTheProcessor() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(Harness.read(1) + Harness.read(2))
        XCTAssertEqual(try harness.writtenNumbers(), [1, 2])
        XCTAssertTrue(harness.processor.batches.isEmpty)
    }

    @MainActor func testCalls_whenPipelinedInOneRead_thenOneBatchAndRepliesInOrder() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(Harness.read(1) + Harness.mutation(2) + Harness.read(3) + Harness.mutation(4))
        await harness.settle()
        XCTAssertEqual(harness.processor.batches.map(\.count), [3], "the read behind a mutation waits its turn in the batch")
        XCTAssertEqual(try harness.writtenNumbers(), [1, 2, 3, 4])
    }

    @MainActor func testCalls_whenMoreThanABatchArrive_thenBatchesOf256InOrder() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.processor.holdsBatches = true
        try harness.send((0..<300).map { Harness.mutation($0) }.joined())
        await harness.settle()
        XCTAssertEqual(harness.processor.batches.map(\.count), [256])
        harness.processor.releaseBatch()
        await harness.settle()
        XCTAssertEqual(harness.processor.batches.map(\.count), [256, 44], "the next batch goes once the first is written")
        XCTAssertEqual(try harness.writtenNumbers(), Array(0..<256))
        harness.processor.releaseAll()
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), Array(256..<300))
    }

    @MainActor func testCalls_whenTheyArriveBeforeThePeerIsKnown_thenAnsweredOnceItIs() async throws {
        let harness = try Harness()
        try await harness.connect(identified: false)
        try harness.send(Harness.read(1) + Harness.mutation(2))
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), [], "who may mutate is not known yet")
        harness.identify()
        await harness.settle()
        XCTAssertEqual(harness.processor.batches.map(\.count), [2], "the read went to the processor, in line")
        XCTAssertEqual(try harness.writtenNumbers(), [1, 2])
    }

    @MainActor func testOneway_whenAnswered_thenNothingIsWritten() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(Harness.mutation(1, oneway: true) + Harness.mutation(2))
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), [2])
    }

    // MARK: Back-pressure

    @MainActor func testRead_whenABatchWorthOfCallsWaits_thenHeldUntilTheBatchIsWritten() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.processor.holdsBatches = true
        try harness.send((0..<600).map { Harness.mutation($0) }.joined())
        let readsBefore = harness.reads.count
        harness.channel.read()
        XCTAssertEqual(harness.reads.count, readsBefore, "344 calls wait: the socket is not read")
        await harness.settle()
        harness.processor.releaseBatch()
        await harness.settle()
        XCTAssertEqual(harness.processor.batches.map(\.count), [256, 256])
        XCTAssertEqual(harness.reads.count, readsBefore + 1, "88 calls wait: the held read goes ahead")
        XCTAssertEqual(try harness.writtenNumbers(), Array(0..<256))
        harness.processor.releaseAll()
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), Array(256..<600))
    }

    @MainActor func testBatch_whenTheChannelIsNotWritable_thenWaitsAndReadsAreHeldUntilItIs() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.channel.isWritable = false
        harness.channel.pipeline.fireChannelWritabilityChanged()
        try harness.send(Harness.mutation(1))
        let readsBefore = harness.reads.count
        harness.channel.read()
        await harness.settle()
        XCTAssertTrue(harness.processor.batches.isEmpty, "replies wait until the client reads those sent")
        XCTAssertEqual(harness.reads.count, readsBefore)
        harness.channel.isWritable = true
        harness.channel.pipeline.fireChannelWritabilityChanged()
        XCTAssertEqual(harness.reads.count, readsBefore + 1)
        await harness.settle()
        XCTAssertEqual(harness.processor.batches.map(\.count), [1])
        XCTAssertEqual(try harness.writtenNumbers(), [1])
    }

    // MARK: more, oneway and streams

    @MainActor func testCall_whenMoreAndOneway_thenClosedWithoutActingOnIt() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(#"{"method":"test.Mutate","more":true,"oneway":true}"# + "\0" + Harness.mutation(2))
        await harness.settle()
        XCTAssertTrue(harness.isClosed)
        XCTAssertTrue(harness.processor.batches.isEmpty)
        XCTAssertEqual(try harness.writtenReplies(), [])
    }

    @MainActor func testWatch_whenACallFollowsInTheSameRead_thenTheStreamBeginsAndTheConnectionCloses() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(Harness.watch + Harness.mutation(2))
        await harness.settle()
        let replies = try harness.writtenReplies()
        XCTAssertEqual(replies.map(\.continues), [true], "only the stream's first reply")
        XCTAssertTrue(harness.isClosed, "no reply to the call behind the stream could follow it")
        XCTAssertEqual(harness.processor.batches.count, 1, "the call behind the stream was not acted on")
    }

    @MainActor func testWatch_whenACallArrivesLater_thenTheConnectionCloses() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(Harness.watch)
        await harness.settle()
        XCTAssertEqual(try harness.writtenReplies().map(\.continues), [true])
        XCTAssertFalse(harness.isClosed)
        try harness.send(Harness.read(2))
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(try harness.writtenReplies(), [], "not even a read is answered on a stream")
    }

    // MARK: Half-close

    @MainActor func testInputClosed_whenIdle_thenWhatWasSentIsAnsweredAndTheConnectionCloses() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.channel.pipeline.fireChannelRead(ByteBuffer(string: Harness.read(1)))
        harness.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        XCTAssertEqual(try harness.writtenNumbers(), [1])
        XCTAssertTrue(harness.isClosed)
    }

    @MainActor func testInputClosed_whenABatchIsInFlight_thenClosesAfterItsReplies() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send(Harness.mutation(1) + Harness.mutation(2))
        harness.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        XCTAssertFalse(harness.isClosed)
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), [1, 2])
        XCTAssertTrue(harness.isClosed)
    }

    // MARK: Framing limits

    @MainActor func testMessage_whenOverTheSizeLimit_thenMessageTooLargeAndClosed() async throws {
        var limits = ServerLimits()
        limits.maximumMessageSize = 64
        let harness = try Harness(limits: limits)
        try await harness.connect()
        try harness.send(Harness.read(1) + String(repeating: "x", count: 100))
        let replies = try harness.writtenReplies()
        // What was answered at once in the same read is not written after the error.
        XCTAssertEqual(replies.map(\.error), ["io.appstate.MessageTooLarge"])
        XCTAssertEqual(replies.last?.parameters["limit"]?.intValue, 64)
        XCTAssertTrue(harness.isClosed)
    }

    /// A host whose interface declares no error for a message too large (as the certification's)
    /// gets the connection closed with no reply, and nothing counted as an error answered.
    @MainActor func testMessage_whenOverTheSizeLimitAndNoErrorIsDeclared_thenClosedWithoutAReply() async throws {
        var limits = ServerLimits()
        limits.maximumMessageSize = 64
        let harness = try Harness(limits: limits, errors: ConnectionErrors())
        try await harness.connect()
        try harness.send(String(repeating: "x", count: 100))
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(try harness.writtenReplies(), [])
        XCTAssertEqual(harness.metrics.connectionErrors, [])
    }

    @MainActor func testMessage_whenMalformed_thenClosedWithoutAReply() async throws {
        let harness = try Harness()
        try await harness.connect()
        try harness.send("not json\0" + Harness.read(2))
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(try harness.writtenReplies(), [])
    }

    @MainActor func testPartialMessage_whenHeldPastTheTimeout_thenClosed() async throws {
        var limits = ServerLimits()
        limits.partialMessageTimeout = .seconds(10)
        let harness = try Harness(limits: limits)
        try await harness.connect()
        try harness.send(#"{"method":"te"#)
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try harness.send(#"st.Re"#)
        XCTAssertFalse(harness.isClosed)
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertTrue(harness.isClosed, "more bytes of the same message do not push the deadline back")
    }

    @MainActor func testPartialMessage_whenFinishedInTime_thenTheConnectionStays() async throws {
        let harness = try Harness()
        try await harness.connect()
        let read = Harness.read(1)
        try harness.send(String(read.prefix(10)))
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        try harness.send(String(read.dropFirst(10)))
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        XCTAssertFalse(harness.isClosed)
        XCTAssertEqual(try harness.writtenNumbers(), [1])
    }

    // MARK: Connections and draining

    @MainActor func testConnect_whenTheLimitIsReached_thenTooManyConnectionsAndClosed() async throws {
        var limits = ServerLimits()
        limits.maximumConnections = 1
        let harness = try Harness(limits: limits)
        XCTAssertTrue(harness.counter.acquire(limit: 1), "another connection holds the only place")
        try await harness.connect()
        XCTAssertEqual(try harness.writtenReplies().map(\.error), ["io.appstate.TooManyConnections"])
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(harness.counter.current, 1, "the refused connection gave back no place it did not take")
    }

    @MainActor func testClose_whenAccepted_thenThePlaceIsGivenBack() async throws {
        let harness = try Harness()
        try await harness.connect()
        XCTAssertEqual(harness.counter.current, 1)
        harness.channel.close(promise: nil)
        XCTAssertEqual(harness.counter.current, 0)
    }

    @MainActor func testConnect_whenTheUserHoldsAllItsPlaces_thenTooManyConnectionsAndClosed() async throws {
        var limits = ServerLimits()
        limits.maximumConnectionsPerUser = 1
        let harness = try Harness(limits: limits)
        XCTAssertTrue(harness.counter.acquire(user: 4711, limit: 1), "another connection of the user holds its only place")
        try await harness.connect(identified: false)
        harness.identify(uid: 4711)
        let replies = try harness.writtenReplies()
        XCTAssertEqual(replies.map(\.error), ["io.appstate.TooManyConnections"])
        XCTAssertEqual(replies.first?.parameters["limit"], 1)
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(harness.counter.current, 0, "its place under the overall limit is given back")
    }

    @MainActor func testClose_whenAUsersConnectionCloses_thenTheUserHasItsPlaceBack() async throws {
        var limits = ServerLimits()
        limits.maximumConnectionsPerUser = 1
        let harness = try Harness(limits: limits)
        try await harness.connect(identified: false)
        harness.identify(uid: 4711)
        XCTAssertFalse(harness.counter.acquire(user: 4711, limit: 1), "the connection holds the user's only place")
        harness.channel.close(promise: nil)
        XCTAssertTrue(harness.counter.acquire(user: 4711, limit: 1))
    }

    func testCounter_whenRootOrTheDaemonsOwnUserConnect_thenNeverRefusedPerUser() {
        let counter = ConnectionCounter()
        for _ in 0..<3 {
            XCTAssertTrue(counter.acquire(user: 0, limit: 1))
            XCTAssertTrue(counter.acquire(user: getuid(), limit: 1))
        }
        XCTAssertTrue(counter.acquire(user: 4711, limit: 1))
        XCTAssertFalse(counter.acquire(user: 4711, limit: 1))
        XCTAssertTrue(counter.acquire(user: 4712, limit: 1), "each user has places of its own")
    }

    // MARK: Idle connections

    @MainActor func testIdle_whenNothingIsSentForTheTimeout_thenClosedAndItsPlaceGivenBack() async throws {
        let harness = try Harness(limits: Self.idleTimeout(.seconds(30)))
        try await harness.connect()
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        XCTAssertFalse(harness.isClosed)
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(harness.counter.current, 0)
    }

    @MainActor func testIdle_whenCallsKeepComing_thenTheTimeoutCountsFromTheLastOne() async throws {
        let harness = try Harness(limits: Self.idleTimeout(.seconds(30)))
        try await harness.connect()
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        try harness.send(Harness.read(1))
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        XCTAssertFalse(harness.isClosed, "49 s after connecting, 29 s after the last call")
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertTrue(harness.isClosed)
        XCTAssertEqual(try harness.writtenNumbers(), [1])
    }

    @MainActor func testIdle_whenABatchIsInFlight_thenKeptUntilTheTimeoutAfterItsReplies() async throws {
        let harness = try Harness(limits: Self.idleTimeout(.seconds(30)))
        try await harness.connect()
        try harness.send(Harness.mutation(1))
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        XCTAssertFalse(harness.isClosed, "waiting for its replies is not idle")
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), [1])
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        XCTAssertFalse(harness.isClosed)
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertTrue(harness.isClosed)
    }

    @MainActor func testIdle_whenTheConnectionStreams_thenNeverClosed() async throws {
        let harness = try Harness(limits: Self.idleTimeout(.seconds(30)))
        try await harness.connect()
        try harness.send(Harness.watch)
        await harness.settle()
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(3600))
        XCTAssertFalse(harness.isClosed)
    }

    @MainActor func testIdle_whenTheTimeoutIsOff_thenNeverClosed() async throws {
        let harness = try Harness(limits: Self.idleTimeout(nil))
        try await harness.connect()
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(86400))
        XCTAssertFalse(harness.isClosed)
    }

    private static func idleTimeout(_ timeout: Duration?) -> ServerLimits {
        var limits = ServerLimits()
        limits.idleTimeout = timeout
        return limits
    }

    @MainActor func testConnect_whenThePeerCannotBeIdentified_thenClosed() async throws {
        let harness = try Harness()
        try await harness.connect(identified: false)
        harness.failIdentification()
        XCTAssertTrue(harness.isClosed)
    }

    @MainActor func testDrain_whenIdle_thenClosesAtOnce() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.channel.pipeline.fireUserInboundEventTriggered(DrainEvent())
        XCTAssertTrue(harness.isClosed)
    }

    @MainActor func testDrain_whenABatchIsInFlight_thenClosesOnceItsRepliesAreWritten() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.processor.holdsBatches = true
        try harness.send(Harness.mutation(1))
        await harness.settle()
        harness.channel.pipeline.fireUserInboundEventTriggered(DrainEvent())
        XCTAssertFalse(harness.isClosed)
        harness.processor.releaseBatch()
        await harness.settle()
        XCTAssertEqual(try harness.writtenNumbers(), [1])
        XCTAssertTrue(harness.isClosed)
    }

    @MainActor func testBatch_whenTheConnectionClosedMeanwhile_thenItsRepliesAreDropped() async throws {
        let harness = try Harness()
        try await harness.connect()
        harness.processor.holdsBatches = true
        try harness.send(Harness.mutation(1))
        await harness.settle()
        harness.channel.close(promise: nil)
        harness.processor.releaseBatch()
        await harness.settle()
        XCTAssertEqual(harness.processor.answeredBatches, 1)
        XCTAssertEqual(try harness.writtenReplies(), [])
    }
}
