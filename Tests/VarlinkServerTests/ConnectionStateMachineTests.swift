import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import VarlinkServer

/// The rules of one connection, without a channel: ordering, batching, back-pressure,
/// `oneway`, the streaming rule, half-close, errors and draining.
final class ConnectionStateMachineTests: AppStateTestCase {
    private let connection = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

    /// A machine whose peer is known and which has nothing to do.
    private func identifiedMachine() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine()
        XCTAssertTrue(machine.connected(placeTaken: true))
        XCTAssertEqual(machine.identified(connection).step, .none)
        return machine
    }

    // MARK: Ordering

    func testReceived_whenIdleAndNothingWaits_thenAnsweredAtOnce() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.received(call(1)), .answerAtOnce)
        XCTAssertEqual(machine.received(call(2)), .answerAtOnce)
        XCTAssertEqual(machine.readComplete().step, .none)
    }

    func testReceived_whenACallWaits_thenLaterCallsWaitBehindItAndGoInOneBatchInOrder() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.received(call(1)), .answerAtOnce)
        machine.queue(call(1))
        XCTAssertEqual(machine.received(call(2)), .wait, "a read must not overtake the call before it")
        XCTAssertEqual(machine.received(call(3)), .wait)
        XCTAssertEqual(machine.readComplete().step, .process([1, 2, 3], thenRead: false))
    }

    func testReceived_whenABatchIsWithTheProcessor_thenCallsWaitUntilItsRepliesAreWritten() {
        var machine = identifiedMachine()
        machine.queue(call(1))
        XCTAssertEqual(machine.readComplete().step, .process([1], thenRead: false))
        XCTAssertEqual(machine.received(call(2)), .wait)
        XCTAssertEqual(machine.readComplete().step, .none, "one batch at a time")
        XCTAssertEqual(machine.answered([reply(1)], to: [call(1)]), .write(thenClose: false))
        XCTAssertEqual(machine.repliesWritten().step, .process([2], thenRead: false))
    }

    func testReceived_beforeThePeerIsKnown_thenCallsWaitAndGoOnceItIs() {
        var machine = ConnectionStateMachine()
        XCTAssertTrue(machine.connected(placeTaken: true))
        XCTAssertEqual(machine.received(call(1)), .wait, "who may mutate is not known yet")
        XCTAssertEqual(machine.readComplete().step, .none)
        XCTAssertEqual(machine.identified(connection).step, .process([1], thenRead: false))
    }

    // MARK: Batching and back-pressure

    func testBatch_whenMoreThanABatchWaits_thenAtMost256GoPerHop() {
        var machine = identifiedMachine()
        machine.queue(call(0))
        for n in 1..<300 { XCTAssertEqual(machine.received(call(n)), .wait) }
        XCTAssertEqual(machine.readComplete().step, .process(Array(0..<256), thenRead: false))
        XCTAssertEqual(machine.answered(Array(0..<256).map(reply), to: Array(0..<256).map(call)), .write(thenClose: false))
        XCTAssertEqual(machine.repliesWritten().step, .process(Array(256..<300), thenRead: false))
    }

    func testRead_whenABatchWorthWaits_thenHeldUntilTheRepliesAreWritten() {
        var machine = identifiedMachine()
        machine.queue(call(0))
        for n in 1..<600 { _ = machine.received(call(n)) }
        XCTAssertEqual(machine.readComplete().step, .process(Array(0..<256), thenRead: false))
        XCTAssertFalse(machine.readRequested(), "344 calls wait: more than a batch")
        XCTAssertEqual(machine.answered(Array(0..<256).map(reply), to: Array(0..<256).map(call)), .write(thenClose: false))
        XCTAssertEqual(
            machine.repliesWritten().step, .process(Array(256..<512), thenRead: true),
            "88 calls wait: the held read goes ahead")
        XCTAssertTrue(machine.readRequested())
    }

    func testRead_whenFewerThanABatchWait_thenNotHeld() {
        var machine = identifiedMachine()
        machine.queue(call(0))
        for n in 1..<255 { _ = machine.received(call(n)) }
        XCTAssertTrue(machine.readRequested())
    }

    func testWritability_whenNotWritable_thenNoBatchAndNoReadUntilWritableAgain() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.writabilityChanged(isWritable: false).step, .none)
        XCTAssertEqual(machine.received(call(1)), .answerAtOnce)
        machine.queue(call(1))
        XCTAssertEqual(machine.readComplete().step, .none, "replies wait until the client reads those sent")
        XCTAssertFalse(machine.readRequested())
        XCTAssertEqual(machine.writabilityChanged(isWritable: true).step, .process([1], thenRead: true))
    }

    func testWritability_whenWritableWithNothingHeld_thenNothingToDo() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.writabilityChanged(isWritable: true).step, .none)
    }

    // MARK: oneway and more

    func testReceived_whenMoreAndOneway_thenClosesWithoutActingOnIt() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.received(VarlinkCall(method: "test.Watch", oneway: true, more: true)), .close)
        XCTAssertTrue(machine.isClosed)
        XCTAssertEqual(machine.received(call(2)), .drop)
    }

    // MARK: Streaming

    func testAnswered_whenAWatchStreams_thenACallBehindItInTheBatchClosesTheConnection() {
        var machine = identifiedMachine()
        let calls = [VarlinkCall(method: "test.Watch", more: true), call(2)]
        machine.queue(calls[0])
        XCTAssertEqual(machine.received(calls[1]), .wait)
        XCTAssertEqual(machine.readComplete().step, .process([-1, 2], thenRead: false))
        let stream = VarlinkReply(continues: true)
        XCTAssertEqual(machine.answered([stream], to: calls), .write(thenClose: false), "the stream's first reply is written")
        XCTAssertEqual(machine.repliesWritten().step, .close, "no reply to the call behind the stream could follow it")
    }

    func testReceived_whenStreaming_thenALaterCallClosesTheConnection() {
        var machine = identifiedMachine()
        let watch = VarlinkCall(method: "test.Watch", more: true)
        machine.queue(watch)
        _ = machine.readComplete()
        XCTAssertEqual(machine.answered([VarlinkReply(continues: true)], to: [watch]), .write(thenClose: false))
        XCTAssertEqual(machine.repliesWritten().step, .none)
        XCTAssertEqual(machine.received(call(2)), .wait, "not answered at once on a stream")
        XCTAssertEqual(machine.readComplete().step, .close)
    }

    func testAnswered_whenACallWithMoreEndsItsRunOfReplies_thenTheConnectionStaysIdleForTheNextCall() {
        var machine = identifiedMachine()
        let more = VarlinkCall(method: "test.Count", more: true)
        machine.queue(more)
        _ = machine.readComplete()
        let run = [VarlinkReply(continues: true), VarlinkReply(continues: true), VarlinkReply()]
        XCTAssertEqual(machine.answered(run, to: [more]), .write(thenClose: false))
        XCTAssertEqual(machine.repliesWritten().step, .none)
        XCTAssertEqual(machine.received(call(2)), .answerAtOnce, "the run ended: the connection is not a stream")
    }

    func testAnswered_whenARunOfRepliesIsFollowedByAWatch_thenOnlyTheCallsBehindTheWatchWait() {
        var machine = identifiedMachine()
        let calls = [VarlinkCall(method: "test.Count", more: true), VarlinkCall(method: "test.Watch", more: true), call(3)]
        machine.queue(calls[0])
        XCTAssertEqual(machine.received(calls[1]), .wait)
        XCTAssertEqual(machine.received(calls[2]), .wait)
        _ = machine.readComplete()
        let replies = [VarlinkReply(continues: true), VarlinkReply(), VarlinkReply(continues: true)]
        XCTAssertEqual(machine.answered(replies, to: calls), .write(thenClose: false))
        XCTAssertEqual(machine.repliesWritten().step, .close, "the call behind the stream is back in line, and the stream's rule closes")
    }

    // MARK: Half-close

    func testInputClosed_whenIdle_thenWritesWhatWasAnsweredAndCloses() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.received(call(1)), .answerAtOnce)
        XCTAssertTrue(machine.inputClosedByPeer())
        XCTAssertTrue(machine.isClosed)
    }

    func testInputClosed_whenABatchIsWithTheProcessor_thenClosesAfterItsReplies() {
        var machine = identifiedMachine()
        machine.queue(call(1))
        _ = machine.readComplete()
        XCTAssertFalse(machine.inputClosedByPeer())
        XCTAssertEqual(machine.answered([reply(1)], to: [call(1)]), .write(thenClose: true))
    }

    func testInputClosed_whenCallsWaitForTheNextBatch_thenClosesAfterTheLastBatch() {
        var machine = identifiedMachine()
        machine.queue(call(0))
        for n in 1..<300 { _ = machine.received(call(n)) }
        _ = machine.readComplete()
        XCTAssertFalse(machine.inputClosedByPeer())
        XCTAssertEqual(machine.answered(Array(0..<256).map(reply), to: Array(0..<256).map(call)), .write(thenClose: false))
        XCTAssertEqual(machine.repliesWritten().step, .process(Array(256..<300), thenRead: false))
        XCTAssertEqual(machine.answered(Array(256..<300).map(reply), to: Array(256..<300).map(call)), .write(thenClose: true))
    }

    func testInputClosed_whenStreaming_thenTheStreamGoesOn() {
        var machine = identifiedMachine()
        let watch = VarlinkCall(method: "test.Watch", more: true)
        machine.queue(watch)
        _ = machine.readComplete()
        _ = machine.answered([VarlinkReply(continues: true)], to: [watch])
        XCTAssertFalse(machine.inputClosedByPeer())
        XCTAssertFalse(machine.isClosed)
    }

    func testInputClosed_whenTheStreamEndsWithInput_thenCloses() {
        var machine = identifiedMachine()
        let inhibit = VarlinkCall(method: "test.Inhibit", more: true)
        machine.queue(inhibit)
        _ = machine.readComplete()
        _ = machine.answered([VarlinkReply(continues: true)], to: [inhibit], streamEndsWithInput: true)
        XCTAssertTrue(machine.inputClosedByPeer(endsStream: true))
        XCTAssertTrue(machine.isClosed)
    }

    func testInputClosed_whenBeforeTheReplyOfAStreamThatEndsWithInput_thenClosesAfterTheReply() {
        var machine = identifiedMachine()
        let inhibit = VarlinkCall(method: "test.Inhibit", more: true)
        machine.queue(inhibit)
        _ = machine.readComplete()
        XCTAssertFalse(machine.inputClosedByPeer())
        XCTAssertEqual(machine.answered([VarlinkReply(continues: true)], to: [inhibit], streamEndsWithInput: true), .write(thenClose: true))
    }

    // MARK: Drain

    func testDrain_whenIdle_thenClosesAtOnce() {
        var machine = identifiedMachine()
        XCTAssertTrue(machine.drain())
    }

    func testDrain_whenABatchIsWithTheProcessor_thenClosesOnceItsRepliesAreWritten() {
        var machine = identifiedMachine()
        machine.queue(call(1))
        _ = machine.readComplete()
        XCTAssertFalse(machine.drain())
        XCTAssertEqual(machine.answered([reply(1)], to: [call(1)]), .write(thenClose: true))
    }

    func testAnswered_whenTheConnectionClosedMeanwhile_thenTheRepliesAreDropped() {
        var machine = identifiedMachine()
        machine.queue(call(1))
        _ = machine.readComplete()
        XCTAssertTrue(machine.closed(), "the place is given back")
        XCTAssertEqual(machine.answered([reply(1)], to: [call(1)]), .drop)
    }

    // MARK: Errors and the connection limit

    func testErrorCaught_whenMessageTooLarge_thenAnswersAndCloses() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.errorCaught(messageTooLarge: true), .answerTooLargeAndClose)
        XCTAssertEqual(machine.errorCaught(messageTooLarge: false), .none, "already closing: the answer is still written")
    }

    func testErrorCaught_whenAnyOtherError_thenCloses() {
        var machine = identifiedMachine()
        XCTAssertEqual(machine.errorCaught(messageTooLarge: false), .close)
    }

    func testConnected_whenNoPlaceIsFree_thenRefusedAndNoPlaceToGiveBack() {
        var machine = ConnectionStateMachine()
        XCTAssertFalse(machine.connected(placeTaken: false))
        XCTAssertTrue(machine.isClosed)
        XCTAssertFalse(machine.closed())
    }

    func testClosed_whenAPlaceWasTaken_thenGivenBackOnce() {
        var machine = identifiedMachine()
        XCTAssertTrue(machine.closed())
        XCTAssertFalse(machine.closed())
    }

    func testIdentificationFailed_thenClosedAndCallsDropped() {
        var machine = ConnectionStateMachine()
        XCTAssertTrue(machine.connected(placeTaken: true))
        machine.identificationFailed()
        XCTAssertEqual(machine.received(call(1)), .drop)
        XCTAssertEqual(machine.identified(connection).step, .none)
    }

    // MARK: Helpers

    private func call(_ n: Int) -> VarlinkCall {
        VarlinkCall(method: "test.Mutate", parameters: ["n": .number(Double(n))])
    }

    private func reply(_ n: Int) -> VarlinkReply? {
        VarlinkReply(parameters: ["answered": .number(Double(n))])
    }
}

/// An action with its calls reduced to their numbers (-1 for a call without one), to compare.
private enum Step: Equatable {
    case none
    case process([Int], thenRead: Bool)
    case read
    case close
}

extension ConnectionStateMachine.Action {
    fileprivate var step: Step {
        switch self {
        case .none: .none
        case .process(let calls, _, let thenRead): .process(calls.map { $0.parameters["n"]?.intValue ?? -1 }, thenRead: thenRead)
        case .read: .read
        case .close: .close
        }
    }
}
