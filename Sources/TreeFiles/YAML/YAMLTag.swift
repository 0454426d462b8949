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
        for (tag, rule) in rules where (try? rule.wholeMatch(in: text)) != nil {
            return tag
        }
        return string
    }

    // The patterns are Yams' (Resolver.swift), which are PyYAML's: matching a literal never
    // throws, so `try?` above loses nothing.
    nonisolated(unsafe) private static let rules: [(String, Regex<Substring>)] = [
        ("tag:yaml.org,2002:bool", #/yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF/#),
        ("tag:yaml.org,2002:int", #/[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+/#),
        (
            "tag:yaml.org,2002:float",
            #/[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)/#
        ),
        (merge, #/<</#),
        ("tag:yaml.org,2002:null", #/~|null|Null|NULL|/#),
        (
            "tag:yaml.org,2002:timestamp",
            #/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?/#
        ),
        (value, #/=/#),
    ]
}
