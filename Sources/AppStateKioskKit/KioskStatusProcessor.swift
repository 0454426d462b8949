import AppStateCore
import AppStateIPC
import ServicePorts

/// Answers `io.appstate.kiosk` on appstate-kiosk's status socket from the supervisor: its
/// status and a screenshot. The supervisor is an actor of its own, so each batch is answered
/// off the main actor and handed back through the runner, as the server requires.
@MainActor final class KioskStatusProcessor: CallProcessor {
    private let supervisor: KioskSupervisor
    private let runner: any MainActorRunner

    /// A processor for a supervisor.
    /// - Parameters:
    ///   - supervisor: What answers.
    ///   - runner: The way back to the main actor, where replies are handed to the server.
    nonisolated init(supervisor: KioskSupervisor, runner: any MainActorRunner) {
        self.supervisor = supervisor
        self.runner = runner
    }

    nonisolated var interface: VarlinkInterfaceDescription { KioskInterface.hosted }

    func process(_ calls: [VarlinkCall], on connection: ConnectionContext, reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
        let (supervisor, runner) = (self.supervisor, self.runner)
        Task.detached {
            var replies: [VarlinkReply?] = []
            for call in calls {
                let answer = await Self.answer(call, from: supervisor)
                replies.append(call.oneway ? nil : answer)
            }
            runner.execute { reply(replies) }
        }
    }

    /// Every answer waits for the supervisor.
    nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool { false }

    private nonisolated static func answer(_ call: VarlinkCall, from supervisor: KioskSupervisor) async -> VarlinkReply {
        do throws(VarlinkError) {
            guard let method = KioskMethod(rawValue: call.method) else { throw .methodNotFound(call.method) }
            switch method {
            case .getStatus:
                _ = try GetStatus.Parameters(parameters: call.parameters)
                return VarlinkReply(parameters: await supervisor.status().parameters)
            case .screenshot:
                _ = try Screenshot.Parameters(parameters: call.parameters)
                return VarlinkReply(parameters: try await supervisor.screenshot().parameters)
            }
        } catch {
            return VarlinkReply(error: error)
        }
    }
}
