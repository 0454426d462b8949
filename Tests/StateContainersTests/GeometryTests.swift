import AppStateCore
import Foundation
import StateContainers
import XCTest

/// Geometry values, view coordinate conversion and JSONValue.
final class GeometryTests: ModelTestCase {
    // MARK: View.convert

    /// window ⊃ root (0,0 400×300) ⊃ outer at (10,20) ⊃ inner at (5,5); `sibling` at (100,0) in root.
    private func makeViews() -> (window: Window, root: View, outer: View, inner: View, sibling: View) {
        let window = Window(size: Size(width: 400, height: 300))
        let rootController = Controller(identifier: "root")
        window.rootController = rootController
        let root = rootController.view
        let outer = View(frame: Rect(x: 10, y: 20, width: 200, height: 200))
        let inner = View(frame: Rect(x: 5, y: 5, width: 50, height: 50))
        let sibling = View(frame: Rect(x: 100, y: 0, width: 50, height: 50))
        root.addSubview(outer)
        outer.addSubview(inner)
        root.addSubview(sibling)
        return (window, root, outer, inner, sibling)
    }

    func testConvert_whenFramesAreNested_thenAddsTheOrigins() async {
        let v = makeViews()
        let rect = Rect(x: 1, y: 2, width: 3, height: 4)

        XCTAssertEqual(v.inner.convert(rect, to: nil), Rect(x: 16, y: 27, width: 3, height: 4))
        XCTAssertEqual(v.inner.convert(rect, to: v.outer), Rect(x: 6, y: 7, width: 3, height: 4))
        XCTAssertEqual(v.inner.convert(rect, to: v.root), Rect(x: 16, y: 27, width: 3, height: 4))
        XCTAssertEqual(v.inner.convert(rect, to: v.sibling), Rect(x: -84, y: 27, width: 3, height: 4))
        XCTAssertEqual(v.inner.convert(rect, to: v.inner), rect)
        withExtendedLifetime(v.window) {}
    }

    func testConvert_fromNil_thenTakesWindowCoordinates() async {
        let v = makeViews()

        XCTAssertEqual(v.inner.convert(Rect(x: 16, y: 27, width: 3, height: 4), from: nil), Rect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(v.sibling.convert(Rect(x: 1, y: 2, width: 3, height: 4), from: v.inner), Rect(x: -84, y: 27, width: 3, height: 4))
        XCTAssertEqual(v.outer.convert(Rect(x: 0, y: 0, width: 1, height: 1), from: v.inner), Rect(x: 5, y: 5, width: 1, height: 1))
        withExtendedLifetime(v.window) {}
    }

    func testConvert_whenASuperviewIsScrolled_thenSubtractsItsContentOffset() async {
        let v = makeViews()
        v.outer.contentOffset = Point(x: 0, y: 100)

        XCTAssertEqual(v.inner.convert(Rect(x: 0, y: 0, width: 10, height: 10), to: nil), Rect(x: 15, y: -75, width: 10, height: 10))
        XCTAssertEqual(v.inner.convert(Rect(x: 15, y: -75, width: 10, height: 10), from: nil), Rect(x: 0, y: 0, width: 10, height: 10))
        // The scrolled view's own visible top-left corner is at its frame origin.
        XCTAssertEqual(v.outer.convert(v.outer.bounds, to: nil), Rect(x: 10, y: 20, width: 200, height: 200))
        XCTAssertEqual(v.outer.convert(Rect(x: 0, y: 20, width: 1, height: 1), to: nil), Rect(x: 10, y: -60, width: 1, height: 1))
        withExtendedLifetime(v.window) {}
    }

    func testConvert_roundTripsBetweenAnyTwoViews() async {
        let v = makeViews()
        v.outer.contentOffset = Point(x: 7, y: 11)
        let rect = Rect(x: 3, y: -4, width: 5, height: 6)

        for a in [v.root, v.outer, v.inner, v.sibling] {
            for b in [v.root, v.outer, v.inner, v.sibling] {
                XCTAssertEqual(b.convert(a.convert(rect, to: b), to: a), rect)
                XCTAssertEqual(a.convert(rect, to: b), b.convert(rect, from: a))
            }
        }
        withExtendedLifetime(v.window) {}
    }

    // MARK: Rect

    func testRect_accessors_thenStandardiseNegativeSizes() async {
        let rect = Rect(x: 10, y: 20, width: -4, height: 6)

        XCTAssertEqual(rect.minX, 6)
        XCTAssertEqual(rect.maxX, 10)
        XCTAssertEqual(rect.minY, 20)
        XCTAssertEqual(rect.maxY, 26)
        XCTAssertEqual(rect.width, 4)
        XCTAssertEqual(rect.height, 6)
        XCTAssertEqual(rect.midX, 8)
        XCTAssertEqual(rect.midY, 23)
        XCTAssertEqual(Rect(origin: Point(x: 10, y: 20), size: Size(width: -4, height: 6)), rect)
    }

    func testRectIntersection_whenOverlapping_thenCommonArea() async {
        let a = Rect(x: 0, y: 0, width: 100, height: 100)
        let b = Rect(x: 50, y: 80, width: 100, height: 100)

        XCTAssertEqual(a.intersection(b), Rect(x: 50, y: 80, width: 50, height: 20))
        XCTAssertEqual(b.intersection(a), Rect(x: 50, y: 80, width: 50, height: 20))
        XCTAssertEqual(a.intersection(Rect(x: 10, y: 10, width: 5, height: 5)), Rect(x: 10, y: 10, width: 5, height: 5))
    }

    func testRectIntersection_whenDisjoint_thenNull() async {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)

        let result = a.intersection(Rect(x: 20, y: 0, width: 10, height: 10))

        XCTAssertTrue(result.isNull)
        XCTAssertTrue(result.isEmpty)
        XCTAssertEqual(result, .null)
        XCTAssertTrue(a.intersection(.null).isNull)
        XCTAssertTrue(Rect.null.intersection(a).isNull)
    }

    func testRectContains_point_thenExcludesTheFarEdges() async {
        let rect = Rect(x: 0, y: 0, width: 10, height: 10)

        XCTAssertTrue(rect.contains(Point(x: 0, y: 0)))
        XCTAssertTrue(rect.contains(Point(x: 9.99, y: 5)))
        XCTAssertFalse(rect.contains(Point(x: 10, y: 5)))
        XCTAssertFalse(rect.contains(Point(x: 5, y: 10)))
        XCTAssertFalse(rect.contains(Point(x: -0.01, y: 5)))
        XCTAssertFalse(Rect.null.contains(Point(x: 0, y: 0)))
    }

    func testRectContains_rect_thenTrueOnlyWhenEnclosed() async {
        let rect = Rect(x: 0, y: 0, width: 10, height: 10)

        XCTAssertTrue(rect.contains(rect))
        XCTAssertTrue(rect.contains(Rect(x: 2, y: 2, width: 8, height: 8)))
        XCTAssertFalse(rect.contains(Rect(x: 2, y: 2, width: 9, height: 8)))
        XCTAssertFalse(rect.contains(Rect.null))
    }

    func testRectInset_thenMovesEachEdgeInwardAndNeverGoesNegative() async {
        let rect = Rect(x: 10, y: 20, width: 100, height: 50)

        XCTAssertEqual(rect.inset(by: Insets(top: 1, left: 2, bottom: 3, right: 4)), Rect(x: 12, y: 21, width: 94, height: 46))
        XCTAssertEqual(rect.inset(by: .zero), rect)
        XCTAssertEqual(rect.inset(by: Insets(top: 0, left: 0, bottom: 60, right: 0)).height, 0)
        XCTAssertEqual(rect.inset(by: Insets(top: -5, left: -5, bottom: -5, right: -5)), Rect(x: 5, y: 15, width: 110, height: 60))
    }

    func testRectNullAndZeroAndEmpty() async {
        XCTAssertTrue(Rect.null.isNull)
        XCTAssertFalse(Rect.zero.isNull)
        XCTAssertTrue(Rect.zero.isEmpty)
        XCTAssertTrue(Rect(x: 1, y: 1, width: 0, height: 5).isEmpty)
        XCTAssertFalse(Rect(x: 1, y: 1, width: 1, height: 5).isEmpty)
        XCTAssertEqual(Rect(x: 1, y: 2, width: 3, height: 4).offsetBy(dx: 10, dy: -2), Rect(x: 11, y: 0, width: 3, height: 4))
        XCTAssertTrue(Rect(x: 1, y: 2, width: 3, height: 4).isFinite)
        XCTAssertFalse(Rect(x: .nan, y: 2, width: 3, height: 4).isFinite)
    }

    func testGeometryValues_roundTripThroughJSON() async throws {
        let rect = Rect(x: 1.5, y: -2, width: 30, height: 40)
        let insets = Insets(top: 1, left: 2, bottom: 3, right: 4)
        let point = Point(x: 7, y: 8)
        let size = Size(width: 9, height: 10)

        XCTAssertEqual(try JSONDecoder().decode(Rect.self, from: JSONEncoder().encode(rect)), rect)
        XCTAssertEqual(try JSONDecoder().decode(Insets.self, from: JSONEncoder().encode(insets)), insets)
        XCTAssertEqual(try JSONDecoder().decode(Point.self, from: JSONEncoder().encode(point)), point)
        XCTAssertEqual(try JSONDecoder().decode(Size.self, from: JSONEncoder().encode(size)), size)
        XCTAssertEqual(Set([rect, rect, Rect.zero]).count, 2)
    }

    // MARK: JSONValue

    func testJSONValue_literals_thenMakeTheMatchingCases() async {
        let value: JSONValue = ["name": "ada", "age": 36, "ratio": 0.5, "admin": true, "none": nil, "tags": ["a", 1]]

        XCTAssertEqual(
            value,
            .object([
                "name": .string("ada"),
                "age": .number(36),
                "ratio": .number(0.5),
                "admin": .bool(true),
                "none": .null,
                "tags": .array([.string("a"), .number(1)]),
            ]))
        XCTAssertEqual(value["name"]?.stringValue, "ada")
        XCTAssertEqual(value["age"]?.intValue, 36)
        XCTAssertNil(value["ratio"]?.intValue)
        XCTAssertEqual(value["ratio"]?.doubleValue, 0.5)
        XCTAssertEqual(value["admin"]?.boolValue, true)
        XCTAssertEqual(value["tags"]?.arrayValue?.count, 2)
        XCTAssertNil(value["missing"])
        XCTAssertNil(JSONValue.string("x")["key"])
    }

    func testJSONValue_codable_thenRoundTripsKeepingNumbersAndBooleansApart() async throws {
        let value: JSONValue = [
            "zero": 0, "one": 1, "yes": true, "no": false, "pi": 3.25, "s": "1", "n": nil,
            "nested": ["list": [[], [:], [1, "two", false]]],
        ]

        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)

        XCTAssertEqual(decoded, value)
        XCTAssertEqual(decoded["one"], .number(1))
        XCTAssertEqual(decoded["yes"], .bool(true))
        XCTAssertEqual(decoded["s"], .string("1"))
    }

    func testJSONValue_decodesPlainJSONText() async throws {
        let text = #"{"a": [1, 2.5, true, null, "x"], "b": {"c": -3}}"#

        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))

        XCTAssertEqual(decoded, ["a": [1, 2.5, true, nil, "x"], "b": ["c": -3]])
    }
}
