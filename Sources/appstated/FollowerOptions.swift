import AppStateDaemon
import AppStateFollowers
import ArgumentParser
import TreeFiles

/// What every tree follows: `--follow-logind` and `--seat`, `--follow-osk`, `--osk-source` and
/// `--osk-height`, `--follow-output` and `--output` (see ``FollowOutputArguments``).
struct FollowerOptions: ParsableArguments {
    @Flag(
        name: .customLong("follow-logind"),
        help: "Follow systemd-logind: who is logged in on the seat, and the session's lock, drive every tree's login container.")
    var followLogind = false

    @Option(help: "The logind seat to follow with --follow-logind.")
    var seat = "seat0"

    @Flag(
        name: .customLong("follow-osk"),
        help: "Follow the on-screen keyboard on the session bus: squeekboard's, KWin's or Onboard's, whichever is there.")
    var followOSK = false

    @Option(
        name: .customLong("osk-source"),
        help: ArgumentHelp("Follow only this on-screen keyboard with --follow-osk.", valueName: "squeekboard|kwin|onboard"))
    var oskSource: String?

    @Flag(
        name: .customLong("follow-output"),
        help: ArgumentHelp(
            "Follow the Wayland compositor's output: every tree's window takes its logical size (--follow-output NAME, or --output NAME, for that output; the first output otherwise)."
        ))
    var followOutput = false

    @Option(name: .customLong("output"), help: ArgumentHelp("The Wayland output to follow with --follow-output.", valueName: "name"))
    var output: String?

    @Option(
        name: .customLong("osk-height"),
        help: ArgumentHelp("The on-screen keyboard's height (default: squeekboard's own rule for the window).", valueName: "points"))
    var oskHeight: Double?

    func validate() throws {
        if let problem = HostedTreeSpec.seatNameProblem(seat) {
            throw ValidationError("--seat: \(problem)")
        }
        if let oskSource, OnScreenKeyboardKind(rawValue: oskSource) == nil {
            throw ValidationError("--osk-source must be squeekboard, kwin or onboard, not \(oskSource)")
        }
        if let output, let problem = HostedTreeSpec.outputNameProblem(output) {
            throw ValidationError("--output: \(problem)")
        }
        if let oskHeight, !(oskHeight > 0 && oskHeight <= 1_000_000) {
            throw ValidationError("--osk-height must be above 0 and at most 1000000 points")
        }
    }

    /// The part of the daemon's configuration these options say; `--output` alone follows
    /// that output.
    var configuration: DaemonConfiguration.Followers {
        DaemonConfiguration.Followers(
            followLogind: followLogind, seat: seat, followOnScreenKeyboard: followOSK,
            onScreenKeyboardSource: oskSource.flatMap(OnScreenKeyboardKind.init(rawValue:)), onScreenKeyboardHeight: oskHeight,
            followOutput: followOutput || output != nil, output: output)
    }
}
