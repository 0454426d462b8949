import AppStateCore
import StateContainers
import XCTest

// The list-and-map sample: a parent shows a list of places and a map side by side in
// landscape and one above the other in portrait. Picking a place in the list centres the
// map on it; the list does not know the map, it tells its parent, which tells the map.

/// What a list's parent does with a selection, as the sample's delegate protocol.
@MainActor
private protocol PlaceSelectionRelay: AnyObject {
    func placeList(_ list: PlaceList, didSelect place: String)
}

/// The list child: a selection goes to whichever parent relays it.
private final class PlaceList: LoggingController {
    let places = ["Harbour", "Old Town", "Station"]

    func userDidTap(row: Int) {
        guard places.indices.contains(row) else { return }
        (parent as? PlaceSelectionRelay)?.placeList(self, didSelect: places[row])
    }
}

/// The map child: shows the place it is centred on.
private final class PlaceMap: LoggingController {
    private(set) var centredPlace: String?

    func centre(on place: String) {
        centredPlace = place
        log.append("\(identifier).centre(on: \(place))")
    }
}

/// The parent relays from the list to the map, as the sample's container did.
extension StackController: PlaceSelectionRelay {
    fileprivate func placeList(_ list: PlaceList, didSelect place: String) {
        arrangedChildren.lazy.compactMap { $0 as? PlaceMap }.first?.centre(on: place)
    }
}

final class ListAndMapPatternTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    private func makeDashboard() throws -> (StackController, PlaceList, PlaceMap) {
        let list = PlaceList("list", log: log, title: "Places")
        let map = PlaceMap("map", log: log, title: "Map")
        let dashboard = try StackController(identifier: "dashboard", arrangedChildren: [list, map])
        _ = log.take()
        return (dashboard, list, map)
    }

    func testListAndMap_whenTheScreenRotates_thenTheParentFlipsTheAxisAndTellsEachChildItsSize() async throws {
        let (dashboard, list, map) = try makeDashboard()
        let window = show(dashboard, size: Size(width: 1280, height: 800))
        XCTAssertEqual(dashboard.axis, .horizontal)
        XCTAssertEqual(list.view.frame, Rect(x: 0, y: 0, width: 640, height: 800))
        XCTAssertEqual(map.view.frame, Rect(x: 640, y: 0, width: 640, height: 800))
        _ = log.take()

        window.resize(to: Size(width: 800, height: 1280))

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 800x640)", "map.viewWillTransition(to: 800x640)"])
        XCTAssertEqual(dashboard.axis, .vertical)
        XCTAssertEqual(list.view.frame, Rect(x: 0, y: 0, width: 800, height: 640))
        XCTAssertEqual(map.view.frame, Rect(x: 0, y: 640, width: 800, height: 640))

        window.resize(to: Size(width: 1280, height: 800))

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 640x800)", "map.viewWillTransition(to: 640x800)"])
        XCTAssertEqual(map.view.frame, Rect(x: 640, y: 0, width: 640, height: 800))
    }

    func testListAndMap_whenAPlaceIsPickedInTheList_thenTheParentRelaysItToTheMap() async throws {
        let (dashboard, list, map) = try makeDashboard()
        show(dashboard)

        list.userDidTap(row: 1)

        XCTAssertEqual(map.centredPlace, "Old Town")
        XCTAssertEqual(log.take().last, "map.centre(on: Old Town)")
        list.userDidTap(row: 7)
        XCTAssertEqual(map.centredPlace, "Old Town")
    }

    func testListAndMap_whenTheListIsNotInTheParent_thenNothingIsRelayed() async throws {
        let (dashboard, list, map) = try makeDashboard()
        show(dashboard)

        list.unembed()
        list.userDidTap(row: 0)

        XCTAssertNil(map.centredPlace)
        XCTAssertEqual(dashboard.arrangedChildren.map(\.identifier), ["map"])
    }
}
