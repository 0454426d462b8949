import StateContainers

/// One step of a tree's `idle` list: what happens once nobody has used the screen for a time.
///
/// ```yaml
/// idle:
///   - { after: 60, lock: true }       # seconds since the last activity
///   - { after: 300, logout: true }
/// ```
/// Each step names one action: `logout: true`, `lock: true`, `blank: true` or `present: ID`,
/// an entry of the tree's presentations. The steps' `after` values rise, so that they fire in
/// order; any activity starts the clock again and dismisses what a step presented. A blanked
/// screen stays blanked until `Wake`, and the steps after a blank still fire.
package struct IdleStep: Hashable, Sendable {
    /// What a step does when it fires.
    package enum Action: Hashable, Sendable, CustomStringConvertible {
        /// Logs the session out of the tree's login-state container.
        case logout
        /// Locks the session of the tree's login-state container.
        case lock
        /// Presents one of the tree's presentations, by identifier, over the screen.
        case present(String)
        /// Blanks the screen (`Blank`): the kiosk covers its page and turns the output off.
        case blank

        /// The action as `GetStats` shows it: `logout`, `lock`, `present attract`, `blank`.
        package var description: String {
            switch self {
            case .logout: "logout"
            case .lock: "lock"
            case .present(let identifier): "present \(identifier)"
            case .blank: "blank"
            }
        }
    }

    /// Seconds without activity before the step fires: a positive, finite number.
    package var after: Double
    /// Whether the step logs out.
    package var logout: Bool
    /// Whether the step locks.
    package var lock: Bool
    /// The identifier of the presentation the step shows, as the file names it.
    package var present: String?
    /// Whether the step blanks the screen.
    package var blank: Bool

    /// Creates a step; ``HostedTreeFile/validate()`` checks that it names exactly one action.
    /// - Parameters:
    ///   - after: Seconds without activity before it fires.
    ///   - logout: Whether it logs out.
    ///   - lock: Whether it locks.
    ///   - present: The presentation it shows, if any.
    ///   - blank: Whether it blanks the screen.
    package init(after: Double, logout: Bool = false, lock: Bool = false, present: String? = nil, blank: Bool = false) {
        self.after = after
        self.logout = logout
        self.lock = lock
        self.present = present
        self.blank = blank
    }

    /// Creates a step with one action.
    /// - Parameters:
    ///   - after: Seconds without activity before it fires.
    ///   - action: What it does.
    package init(after: Double, _ action: Action) {
        switch action {
        case .logout: self.init(after: after, logout: true)
        case .lock: self.init(after: after, lock: true)
        case .present(let identifier): self.init(after: after, present: identifier)
        case .blank: self.init(after: after, blank: true)
        }
    }

    /// The step's action; nil unless it names exactly one that the tree can carry out, which a
    /// validated file guarantees.
    package var action: Action? {
        switch (logout, lock, blank, present) {
        case (true, false, false, nil): .logout
        case (false, true, false, nil): .lock
        case (false, false, true, nil): .blank
        case (false, false, false, let identifier?): .present(identifier)
        default: nil
        }
    }
}

extension IdleStep: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case after, present, logout, lock, blank
    }

    /// Decodes a step, rejecting unknown keys; the validator checks its values.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing `after`, or an
    ///   unknown key when the decoder collects none.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        after = try container.decode(Double.self, forKey: .after)
        logout = try container.decodeIfPresent(Bool.self, forKey: .logout) ?? false
        lock = try container.decodeIfPresent(Bool.self, forKey: .lock) ?? false
        present = try container.decodeIfPresent(String.self, forKey: .present)
        blank = try container.decodeIfPresent(Bool.self, forKey: .blank) ?? false
    }

    /// Encodes the step as a file would hold it.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(after, forKey: .after)
        try container.encodeIfPresent(present, forKey: .present)
        if logout { try container.encode(true, forKey: .logout) }
        if lock { try container.encode(true, forKey: .lock) }
        if blank { try container.encode(true, forKey: .blank) }
    }
}
