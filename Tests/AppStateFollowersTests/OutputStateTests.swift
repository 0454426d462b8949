import AppStateCore
import CWaylandClient
import ServicePorts
import TestSupport
import WaylandOutputs
import WaylandProtocols
import XCTest

@testable import AppStateFollowers

/// The output follower's reading of `wl_output` and xdg-output events, and the layout it
/// hands over, without a compositor; and the xdg-output tables generated at build time.
final class OutputStateTests: AppStateTestCase {
    func testLogicalSize_whenOnlyWlOutputSpeaks_thenTheModeTurnedAndScaled() {
        var state = OutputState()
        state.applyMode(flags: 1, width: 1080, height: 1920)
        XCTAssertNil(state.logicalSize, "nothing counts before done")
        state.done()
        XCTAssertEqual(state.logicalSize, Size(width: 1080, height: 1920))
        // A quarter turn (90) and its flipped twin (270 flipped) swap width and height.
        for transform: Int32 in [1, 3, 5, 7] {
            state.applyGeometry(transform: transform)
            state.done()
            XCTAssertEqual(state.logicalSize, Size(width: 1920, height: 1080), "transform \(transform)")
        }
        state.applyGeometry(transform: 2)
        state.applyScale(2)
        state.done()
        XCTAssertEqual(state.logicalSize, Size(width: 540, height: 960))
        // A mode that is not the current one changes nothing.
        state.applyMode(flags: 0, width: 640, height: 480)
        state.done()
        XCTAssertEqual(state.logicalSize, Size(width: 540, height: 960))
    }

    func testLogicalSize_whenXdgOutputSpeaks_thenItsSizeWinsUntilDone() {
        var state = OutputState()
        state.applyMode(flags: 3, width: 1920, height: 1080)
        state.applyScale(2)
        state.applyLogicalSize(width: 1280, height: 720)
        state.applyName("HDMI-A-1")
        XCTAssertNil(state.logicalSize)
        state.done()
        XCTAssertEqual(state.logicalSize, Size(width: 1280, height: 720), "a fractional scale of 1.5, which wl_output cannot say")
        XCTAssertEqual(state.current.name, "HDMI-A-1")
        state.applyLogicalSize(width: 720, height: 1280)
        XCTAssertEqual(state.logicalSize, Size(width: 1280, height: 720), "pending until done")
        state.done()
        XCTAssertEqual(state.logicalSize, Size(width: 720, height: 1280))
    }

    func testLogicalSize_whenTheCompositorGivesNoPositiveSize_thenNone() {
        var state = OutputState()
        state.applyMode(flags: 1, width: 0, height: 1080)
        state.done()
        XCTAssertNil(state.logicalSize)
        state.applyLogicalSize(width: -5, height: 10)
        state.done()
        XCTAssertNil(state.logicalSize)
    }

    func testLayout_whenTreesFollowOutputs_thenTheFirstOrTheNamedOneAndTheStatusSaysWhere() {
        let layout = OutputLayout([
            .init(name: "HEADLESS-1", size: Size(width: 1920, height: 1080)), .init(name: "HEADLESS-2", size: Size(width: 800, height: 600)),
        ])
        XCTAssertEqual(layout.output(.first)?.name, "HEADLESS-1")
        XCTAssertEqual(layout.output(.named("HEADLESS-2"))?.size, Size(width: 800, height: 600))
        XCTAssertNil(layout.output(.named("HDMI-A-1")))
        XCTAssertNil(OutputLayout([]).output(.first))
        XCTAssertEqual(
            layout.describe([.first, .named("HDMI-A-1")]),
            "the first output HEADLESS-1 is 1920×1080; HDMI-A-1 is not connected, so its trees have their tree file's size")
    }

    func testGeneratedTables_whenBuiltFromWaylandScannersCode_thenLibwaylandsLayout() throws {
        let manager = ZxdgOutputManagerV1.interface.pointee
        XCTAssertEqual(String(cString: manager.name), "zxdg_output_manager_v1")
        XCTAssertEqual(manager.method_count, 2)
        XCTAssertEqual(manager.event_count, 0)
        let getXdgOutput = manager.methods[Int(ZxdgOutputManagerV1.Request.getXdgOutput.rawValue)]
        XCTAssertEqual(String(cString: getXdgOutput.name), "get_xdg_output")
        XCTAssertEqual(String(cString: getXdgOutput.signature), "no")
        // new_id of zxdg_output_v1, then an object of libwayland's own wl_output.
        XCTAssertEqual(getXdgOutput.types[0], ZxdgOutputV1.interface)
        XCTAssertEqual(getXdgOutput.types[1], appstate_wl_output_interface())
        let output = ZxdgOutputV1.interface.pointee
        XCTAssertEqual(output.version, Int32(ZxdgOutputV1.version))
        XCTAssertEqual(
            (0..<Int(output.event_count)).map { String(cString: output.events[$0].name) },
            ["logical_position", "logical_size", "done", "name", "description"])
        XCTAssertEqual(String(cString: output.events[Int(ZxdgOutputV1.Event.name.rawValue)].signature), "2s")
    }
}
