/// Reads the log `strace -f -ttt -yy -o FILE` writes.
public enum StraceLog {
    /// The completed calls of a log, in the order they completed: a call another thread
    /// interrupted (`<unfinished ...>`) counts where it resumed. Signals and exits are left out.
    /// - Parameter log: The whole log.
    /// - Returns: The calls.
    public static func parse(_ log: String) -> [TracedCall] {
        var calls: [TracedCall] = []
        var unfinished: [Int: (name: String, arguments: String)] = [:]
        for line in log.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard fields.count == 3, let thread = Int(fields[0]) else { continue }
            let text = fields[2]
            if text.hasPrefix("<... ") {
                guard let resumed = text.range(of: " resumed>") else { continue }
                let name = String(text[text.index(text.startIndex, offsetBy: 5)..<resumed.lowerBound])
                guard let start = unfinished.removeValue(forKey: thread), start.name == name else { continue }
                calls.append(call(thread: thread, name: name, rest: start.arguments + text[resumed.upperBound...]))
            } else if text.hasPrefix("---") || text.hasPrefix("+++") {
                continue
            } else if let open = text.firstIndex(of: "(") {
                let name = String(text[..<open])
                let rest = text[text.index(after: open)...]
                if rest.hasSuffix(" <unfinished ...>") {
                    unfinished[thread] = (name, String(rest.dropLast(" <unfinished ...>".count)))
                } else {
                    calls.append(call(thread: thread, name: name, rest: rest))
                }
            }
        }
        return calls
    }

    /// A call from what follows its opening parenthesis: `arguments) = result …`.
    private static func call(thread: Int, name: String, rest: some StringProtocol) -> TracedCall {
        guard let equals = rest.range(of: ") = ", options: .backwards) else {
            return TracedCall(thread: thread, name: name, arguments: String(rest), result: nil)
        }
        let result = rest[equals.upperBound...].split(separator: " ").first.flatMap { Int($0.split(separator: "<").first ?? "") }
        return TracedCall(thread: thread, name: name, arguments: String(rest[..<equals.lowerBound]), result: result)
    }
}
