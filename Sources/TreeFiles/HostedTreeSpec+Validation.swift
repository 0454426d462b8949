import StateContainers

extension HostedTreeSpec {
    /// What is wrong with a logind seat name, by logind's rule for them: `seat` followed by
    /// ASCII letters, digits, `-` and `_`, at most 255 bytes (`seat0`, `seat-usb1`).
    /// - Parameter seat: The name, from a tree file's `logindSeat` or `appstated --seat`.
    /// - Returns: A sentence naming the problem, or nil for a valid name.
    package static func seatNameProblem(_ seat: String) -> String? {
        let rest = seat.unicodeScalars.dropFirst(4)
        let valid =
            seat.hasPrefix("seat") && seat.utf8.count <= 255
            && rest.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        return valid ? nil : "logind seat \"\(seat)\" must be \"seat\" followed by letters, digits, \"-\" and \"_\" (e.g. seat0)"
    }

    /// What is wrong with a Wayland output's name, from a tree file's `output` or
    /// `appstated --follow-output`: compositors name outputs with printable characters
    /// (`HDMI-A-1`, `eDP-1`, `HEADLESS-1`), never empty or longer than 255 bytes.
    /// - Parameter output: The name.
    /// - Returns: A sentence naming the problem, or nil for a valid name.
    package static func outputNameProblem(_ output: String) -> String? {
        let valid = !output.isEmpty && output.utf8.count <= 255 && output.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
        return valid ? nil : "output \"\(output)\" must be a compositor's output name: 1 to 255 printable characters without spaces (e.g. HDMI-A-1)"
    }

    /// Checks the daemon's keys of the tree, which the model's validation leaves alone: the
    /// names of the seat and the output, and idle steps that each name one action the tree can
    /// carry out, after a positive time, in rising order. A seat, a lock and a logout need a
    /// login-state container to act on; a tree that follows a logind seat has logind lock the
    /// session, and leaves logging out to logind (its IdleAction), which decides the session.
    /// - Parameter path: The tree's place in the file.
    /// - Returns: Every problem, at its place.
    func problems(at path: [TreeFileError.PathComponent]) -> [TreeFileError.Issue] {
        var issues: [TreeFileError.Issue] = []
        func report(_ place: [TreeFileError.PathComponent], _ message: String) {
            issues.append(TreeFileError.Issue(path: place, message: message))
        }
        let hasLoginState = Self.containsLoginState(spec.root)
        if let seat = logindSeat {
            if let problem = Self.seatNameProblem(seat) {
                report(path + [.key("logindSeat")], problem)
            }
            if !hasLoginState {
                report(path + [.key("logindSeat")], "a tree that follows a logind seat needs a LoginStateController")
            }
        }
        if let output, let problem = Self.outputNameProblem(output) {
            report(path + [.key("output")], problem)
        }
        var previous: Double?
        for (index, step) in idle.enumerated() {
            let stepPath = path + [.key("idle"), .index(index)]
            if !(step.after.isFinite && step.after > 0) {
                report(stepPath + [.key("after")], "after must be a positive number of seconds (got \(TreeValidator.format(step.after)))")
            } else if let previous, step.after <= previous {
                report(
                    stepPath + [.key("after")],
                    "steps must come in rising order of after: \(TreeValidator.format(step.after)) comes after \(TreeValidator.format(previous))")
            }
            if step.after.isFinite, step.after > 0 { previous = max(previous ?? 0, step.after) }
            let named = [step.present.map { _ in "present" }, step.logout ? "logout" : nil, step.lock ? "lock" : nil, step.blank ? "blank" : nil]
                .compactMap(\.self)
            if named.count > 1 {
                report(stepPath, "a step does one thing: \(named.joined(separator: " and ")) cannot share a step")
            } else if named.isEmpty {
                report(stepPath, "a step needs an action: present: ID, logout: true, lock: true or blank: true")
            }
            if let present = step.present, !spec.presentations.contains(where: { $0.id == present }) {
                let known = spec.presentations.map(\.id)
                report(
                    stepPath + [.key("present")],
                    known.isEmpty
                        ? "unknown presentation \"\(present)\": the tree declares no presentations"
                        : "unknown presentation \"\(present)\" (expected one of \(known.joined(separator: ", ")))")
            }
            if step.logout || step.lock, !hasLoginState {
                report(stepPath, "a \(step.logout ? "logout" : "lock") step needs a LoginStateController in the tree")
            } else if step.logout, logindSeat != nil {
                report(stepPath, "a tree that follows a logind seat leaves logging out to logind (its IdleAction)")
            }
        }
        return issues
    }

    /// Whether a login-state container is in the subtree: among the children, or in a kind's
    /// list of nodes (a navigation destination).
    private static func containsLoginState(_ node: NodeSpec) -> Bool {
        node.type == LoginStateController.Kind.typeName || node.children.contains(where: containsLoginState)
            || node.values.values.contains { value in
                if case .nodes(let nodes) = value { nodes.contains(where: containsLoginState) } else { false }
            }
    }
}
