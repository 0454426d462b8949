import AppStateIPC
import ArgumentParser

/// `appstatectl`: reads and drives the screen state that `appstated` hosts.
@main
struct AppStateCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstatectl",
        abstract: "Read and change what appstated shows: who is logged in, which page, the keyboard, the window size.",
        discussion: """
            appstatectl talks to appstated over its Varlink socket. Reads (status, tree, \
            current, watch, introspect, metrics) are open to anyone who may connect; changes need \
            root, appstated's own user or a member of the appstate group.

            Output is for people by default; --json prints the daemon's reply as one line \
            of JSON (one line per change for watch), for scripts and jq.

            --socket, --tree, --timeout and --json may stand before the command or after it.

            ENVIRONMENT
              APPSTATE_SOCKET  the socket to use when --socket is not given; without
                               either, /run/appstate/io.appstate for root and
                               $XDG_RUNTIME_DIR/appstate/io.appstate for others
              NO_COLOR         any non-empty value turns colour off; colour is only
                               used when standard output is a terminal

            EXIT STATUS
              0   success
              1   appstated refused the request (the reason is on standard error)
              64  the command line is wrong, or gives no socket where there is no
                  default (no XDG_RUNTIME_DIR)
              69  appstated cannot be reached (not running, wrong socket, no access)
              75  appstated did not answer within --timeout
              76  appstated's reply did not follow the protocol

            EXAMPLES
              appstatectl current
              appstatectl login ada && appstatectl page next
              appstatectl current --json | jq .node.frame
              appstatectl --socket /run/appstate/io.appstate --json tree
              appstatectl --generate-completion-script bash > appstatectl.bash
            """,
        version: AppStateVersion.current,
        subcommands: [
            StatusCommand.self,
            TreeCommand.self,
            CurrentCommand.self,
            LoginCommand.self,
            LogoutCommand.self,
            LockCommand.self,
            UnlockCommand.self,
            KeyboardCommand.self,
            ScreenshotCommand.self,
            PageCommand.self,
            MenuCommand.self,
            NavCommand.self,
            PresentCommand.self,
            DismissCommand.self,
            ResizeCommand.self,
            BlankCommand.self,
            WakeCommand.self,
            PostCommand.self,
            WatchCommand.self,
            ActivityCommand.self,
            InhibitCommand.self,
            IntrospectCommand.self,
            MetricsCommand.self,
        ]
    )

    /// The connection options, accepted before the verb as well as after it, as systemctl
    /// and busctl accept theirs (`appstatectl --socket PATH current`). ArgumentParser parses
    /// one command line for the whole command stack, so the subcommand's own copy of these
    /// options receives the values given here too.
    @OptionGroup var options: ConnectionOptions
}
