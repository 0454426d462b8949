import AppStateCore
import ServicePorts

/// The outputs a compositor has, in the order it announced them, each with its name and
/// logical size: what the output follower hands over after each change.
package struct OutputLayout: Hashable, Sendable {
    /// One output.
    package struct Output: Hashable, Sendable {
        /// Its name; nil when the compositor gave none (`wl_output` before version 4 without
        /// xdg-output's name).
        package var name: String?
        /// Its logical size.
        package var size: Size

        /// Describes an output.
        package init(name: String?, size: Size) {
            self.name = name
            self.size = size
        }
    }

    /// The outputs, in the order the compositor announced them.
    package var outputs: [Output]

    /// Creates a layout.
    package init(_ outputs: [Output]) {
        self.outputs = outputs
    }

    /// The output a tree follows, if the compositor has it.
    package func output(_ followed: FollowedOutput) -> Output? {
        switch followed {
        case .first: outputs.first
        case .named(let name): outputs.first { $0.name == name }
        }
    }

    /// For the follower's status: where each followed output stands, e.g.
    /// `the first output HEADLESS-1 is 1920×1080` or `HDMI-A-1 is not connected, so its trees have their tree file's size`.
    package func describe(_ followed: [FollowedOutput]) -> String {
        followed.map { wanted in
            guard let output = output(wanted) else {
                return "\(wanted) is not connected, so its trees have their tree file's size"
            }
            let size = "\(Self.format(output.size.width))×\(Self.format(output.size.height))"
            switch wanted {
            case .first: return "the first output\(output.name.map { " \($0)" } ?? "") is \(size)"
            case .named(let name): return "\(name) is \(size)"
            }
        }.joined(separator: "; ")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
