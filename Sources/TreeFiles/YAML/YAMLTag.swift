/// The tags of YAML's core schema that decoding a tree file tells apart, and how a plain
/// scalar without a tag gets one: the rules of Yams' default resolver (YAML 1.1 booleans,
/// integers, floats and timestamps; `~`, `null` and the empty scalar; `<<`; `=`), tried in its
/// order, so that keys compare as they do with Yams (`1` and `"1"` are two keys, `a` and
/// `"a"` one).
enum YAMLTag {
    static let string = "tag:yaml.org,2002:str"
    static let merge = "tag:yaml.org,2002:merge"
    static let value = "tag:yaml.org,2002:value"

    /// The tag a plain scalar without one gets from its text.
    static func resolve(plain text: String) -> String {
        if let tag = words[text] { return tag }
        // Only numbers and timestamps are left, and each starts with one of these: every
        // other text is a string without trying a pattern, because every key of a file is
        // resolved and a pattern is the dearest way to say "a string".
        guard let first = text.utf8.first, "+-.0123456789".utf8.contains(first) else { return string }
        for (tag, rule) in rules where (try? rule.wholeMatch(in: text)) != nil {
            return tag
        }
        return string
    }

    /// The texts that Yams' patterns for booleans, null, merge and value match: a word each,
    /// which no pattern before theirs matches.
    private static let words: [String: String] = {
        let booleans = [
            "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
        ]
        let nulls = ["~", "null", "Null", "NULL", ""]
        return Dictionary(
            booleans.map { ($0, "tag:yaml.org,2002:bool") } + nulls.map { ($0, "tag:yaml.org,2002:null") } + [("<<", merge), ("=", value)],
            uniquingKeysWith: { first, _ in first })
    }()

    // The patterns are Yams' (Resolver.swift), which are PyYAML's, in its order less the words
    // above: matching a literal never throws, so `try?` above loses nothing.
    nonisolated(unsafe) private static let rules: [(String, Regex<Substring>)] = [
        ("tag:yaml.org,2002:int", #/[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+/#),
        (
            "tag:yaml.org,2002:float",
            #/[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)/#
        ),
        (
            "tag:yaml.org,2002:timestamp",
            #/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?/#
        ),
    ]
}
