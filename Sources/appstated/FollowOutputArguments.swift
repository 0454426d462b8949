/// `--follow-output [NAME]`, an option whose value may be left out, which swift-argument-parser
/// cannot declare: rewritten into the `--follow-output` flag and the `--output NAME` option.
enum FollowOutputArguments {
    /// The arguments with `--follow-output NAME` and `--follow-output=NAME` rewritten.
    static func normalized(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            if argument.hasPrefix("--follow-output=") {
                result += ["--follow-output", "--output", String(argument.dropFirst("--follow-output=".count))]
            } else if argument == "--follow-output", index < arguments.endIndex, !arguments[index].hasPrefix("-") {
                result += ["--follow-output", "--output", arguments[index]]
                index += 1
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
