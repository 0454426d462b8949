import Foundation
import StateContainers
import TestSupport
import TreeFiles
import VarlinkJSON
import XCTest

/// The loader decodes JSON tree files from the value of the package's own parser; Foundation's
/// `JSONDecoder` (``HostedTreeFile/decode(json:)``) is the reference it must agree with, spec
/// for spec and problem for problem, on every file that is valid JSON.
final class TreeFileJSONTests: AppStateTestCase {
    /// Files that are valid JSON but not all valid tree files: each problem the spec decoders
    /// can meet, in the value's every shape.
    private let files = [
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a"}}]}"#,
        #"""
        {"version": 1, "trees": [{"name": "t", "window": {"width": 800, "height": 600}, "offline": "https://k.example/off",
          "logindSeat": "seat0", "output": "HEADLESS-1", "idle": [{"after": 30, "lock": true}, {"after": 60.5, "present": "attract"}],
          "root": {"type": "PaginatedController", "id": "p", "title": "P", "url": "https://k.example/p", "restorationId": null,
                   "transitionMs": 250, "children": [{"type": "Controller", "id": "a", "restorationId": "r"}]},
          "presentations": [{"type": "Controller", "id": "attract"}]}]}
        """#,
        #"{"trees": [{"name": "t", "window": null, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a", "id": "b"}}]}"#,
        #"{"trees": [{"name": 3, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": null, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": ["a"]}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller"}}]}"#,
        #"{"trees": [{"name": "t", "root": []}]}"#,
        #"{"trees": [{"name": "t", "root": null}]}"#,
        #"{"trees": [{"name": "t"}]}"#,
        #"{"trees": {"name": "t"}}"#,
        #"{"trees": null}"#,
        #"{"version": 1}"#,
        #"{"version": 1.5, "trees": []}"#,
        #"{"version": "1", "trees": []}"#,
        #"[]"#,
        #""trees""#,
        #"null"#,
        #"{"trees": [{"name": "t", "colour": 1, "root": {"type": "Controller", "id": "a", "size": 2, "title": 3}}]}"#,
        #"{"trees": [{"name": "t", "typo": 1, "root": {"type": "Controller", "id": "a", "alsoTypo": 2}}], "extra": true}"#,
        #"{"trees": [{"name": "t", "window": {"width": 800}, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "window": {"width": "800", "height": 600, "depth": 1}, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "window": 3, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "PaginatedController", "id": "p", "transitionMs": 2.5}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "PaginatedController", "id": "p", "transitionMs": "fast"}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a", "children": [null]}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a", "children": {"type": "Controller"}}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a", "restorationId": 7}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Nonsense", "id": "a/b", "url": "ftp://x"}}]}"#,
        #"{"trees": [{"name": "t", "idle": [{"lock": true}], "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "idle": [{"after": 5, "lock": 1, "blank": "yes"}], "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "idle": [{"after": 5, "when": 1}], "logindSeat": 0, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "idle": {"after": 5}, "root": {"type": "Controller", "id": "a"}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a"}, "presentations": [{"id": "x"}, 4]}]}"#,
        #"{"trees": [{"name": "Bad Name", "root": {"type": "Controller", "id": "a"}}, {"name": "Bad Name", "root": {"type": "Controller", "id": ""}}]}"#,
        #"""
        {"trees": [{"name": "t", "root": {"type": "NavigationController", "id": "n", "title": null, "url": null, "transitionMs": null,
          "children": [{"type": "SplitController", "id": "s", "primaryFraction": 0.25, "minimumExpandedWidth": 900, "children": [
            {"type": "StackController", "id": "a", "spacing": 8, "children": [{"type": "Controller", "id": "x", "children": null}]},
            {"type": "ContentStateController", "id": "b", "state": "render", "title": "…", "restorationId": "b2",
             "children": [{"type": "Controller", "id": "c"}]}]}],
          "destinations": [{"type": "Controller", "id": "d", "url": "file:///srv/d.html"}, {"type": "MenuController", "id": "m",
            "transitionMs": 0, "children": [{"type": "Controller", "id": "e"}]}]}}]}
        """#,
        #"{"trees": [{"name": "t", "root": {"type": "NavigationController", "id": "n", "children": [{"type": "Controller", "id": "a"}], "destinations": null}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "NavigationController", "id": "n", "children": [{"type": "Controller", "id": "a"}], "destinations": [7]}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "StackController", "id": "s", "spacing": "8", "children": [{"type": "Controller", "id": "a"}]}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a", "children": [{"type": "Controller", "id": "b", "size": 1}]}}]}"#,
        #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a", "children": [{"type": "Controller", "id": "b", "title": false}]}}]}"#,
        TreeFileJSONTests.nested(NodeSpec.maximumDepth),
        TreeFileJSONTests.nested(NodeSpec.maximumDepth + 1),
    ]

    /// A tree whose root has a chain of `depth` children below it, each the only child of the one before.
    private static func nested(_ depth: Int) -> String {
        let chain = (0..<depth).reduce(#"{"type": "Controller", "id": "leaf"}"#) { inner, level in
            #"{"type": "StackController", "id": "s\#(level)", "children": [\#(inner)]}"#
        }
        return #"{"trees": [{"name": "t", "root": \#(chain)}]}"#
    }

    func testDecode_whenValidJSON_thenWhatFoundationsDecoderGives() throws {
        let committed = try FuzzInputs.committed(to: "treefile").map { String(decoding: $0.bytes, as: UTF8.self) }
        var compared = 0
        for json in files + committed where !json.utf8.contains(0) {
            let loaded = outcome { () throws(TreeFileError) in try TreeFileLoader.decode(json: json) }
            // Syntax errors are the loader's own parser's words, not Foundation's.
            guard loaded.issues.first?.hasPrefix(": not valid JSON: ") != true else { continue }
            compared += 1
            let reference = outcome { () throws(TreeFileError) in try HostedTreeFile.decode(json: Array(json.utf8)) }
            XCTAssertEqual(loaded.file, reference.file, json)
            XCTAssertEqual(loaded.issues, reference.issues, json)
        }
        XCTAssertGreaterThan(compared, files.count, "the committed JSON inputs were compared as well")
    }

    func testDecode_whenValidJSONIsReadAsYAML_thenWhatFoundationsDecoderGives() throws {
        // JSON is YAML: read by libyaml, a valid file's nodes take the YAML document's path
        // to the same spec.
        var compared = 0
        // YAML refuses a key named twice, which JSON lets through.
        for json in files where !json.contains(#""id": "a", "id": "b""#) {
            guard let reference = try? HostedTreeFile.decode(json: Array(json.utf8)) else { continue }
            compared += 1
            XCTAssertEqual(try TreeFileLoader.decode(yaml: json), reference, json)
        }
        XCTAssertGreaterThanOrEqual(compared, 5)
    }

    func testReadingNodes_whenANodeIsValid_thenReadWhole_elseLeftToTheDecoder() throws {
        // The loader reads nodes without Decodable and decodes those it cannot: each valid
        // node must be read whole, to what the decoder gives, and each node with a problem
        // left to the decoder, which names it.
        for (json, readWhole) in [
            (#"{"type": "Controller", "id": "a"}"#, true),
            (
                #"{"type": "PaginatedController", "id": "p", "transitionMs": 250, "restorationId": null, "children": [{"type": "Controller", "id": "a"}]}"#,
                true
            ),
            (
                #"{"type": "NavigationController", "id": "n", "title": null, "children": [], "destinations": [{"type": "Controller", "id": "d"}]}"#,
                true
            ),
            (#"{"type": "Controller", "id": "a", "typo": 1}"#, false),
            (#"{"type": "Controller", "id": 3}"#, false),
            (#"{"type": "Controller"}"#, false),
            (#"{"type": "PaginatedController", "id": "p", "transitionMs": 2.5}"#, false),
            (#"{"type": "Controller", "id": "a", "children": [{"type": "Controller", "id": "b", "url": 1}]}"#, false),
            (#"{"type": "Controller", "id": "a", "children": {"type": "Controller", "id": "b"}}"#, false),
            (#"{"type": "NavigationController", "id": "n", "destinations": [null]}"#, false),
        ] {
            let value = try JSONParser().parse(json)
            let read = JSONSpecDocument().node(value, depth: 0)
            XCTAssertEqual(read != nil, readWhole, json)
            if let read {
                XCTAssertEqual(read, try JSONDecoder().decode(NodeSpec.self, from: Data(json.utf8)), json)
            }
        }
        let tooDeep = try JSONParser().parse(#"{"type": "Controller", "id": "a"}"#)
        XCTAssertNil(JSONSpecDocument().node(tooDeep, depth: NodeSpec.maximumDepth + 1))
    }

    /// The spec, or the problems by place and message: the lines only the loader adds left out.
    private func outcome(_ decode: () throws(TreeFileError) -> HostedTreeFile) -> (file: HostedTreeFile?, issues: [String]) {
        do throws(TreeFileError) {
            return (try decode(), [])
        } catch {
            return (nil, error.issues.map { "\($0.location): \($0.message)" })
        }
    }
}
