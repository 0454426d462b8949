import AppStateGatewayKit
import AppStateHTTP
import NIOHTTP1
import TestSupport
import XCTest

final class GatewayRouteTests: AppStateTestCase {
    private func decide(_ method: String, _ target: String, _ headers: [(String, String)] = []) throws -> GatewayRoute {
        try GatewayRoute.decide(HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers)), allowList: MethodAllowList())
    }

    private func refusal(_ method: String, _ target: String) -> GatewayRefusal? {
        do {
            _ = try GatewayRoute.decide(HTTPRequest(method: method, target: target), allowList: try MethodAllowList())
            return nil
        } catch let error as GatewayRefusal {
            return error
        } catch {
            return nil
        }
    }

    func testDecide_whenEachRoute_thenNamesIt() throws {
        XCTAssertEqual(try decide("POST", "/call/io.appstate.GetTree"), .call(method: "io.appstate.GetTree"))
        XCTAssertEqual(try decide("GET", "/watch"), .watch(WatchRequest()))
        XCTAssertEqual(
            try decide("GET", "/watch?path=session%2Fhome&tree=second&token=x"), .watch(WatchRequest(tree: "second", path: "session/home")))
        XCTAssertEqual(try decide("GET", "/watch", [("Last-Event-ID", "e.3")]), .watch(WatchRequest(lastEventID: "e.3")))
        XCTAssertEqual(try decide("GET", "/watch?lastEventId=e.4"), .watch(WatchRequest(lastEventID: "e.4")))
        XCTAssertEqual(try decide("GET", "/appstate.js?token=x"), .module)
        XCTAssertEqual(try decide("GET", "/?token=x"), .page("index.html"))
        XCTAssertEqual(try decide("GET", "/kiosk.css"), .page("kiosk.css"))
        XCTAssertEqual(try decide("GET", "/assets/"), .page("assets/index.html"))
        XCTAssertEqual(try decide("GET", "/a%20b/c.png"), .page("a b/c.png"))
        XCTAssertEqual(try decide("POST", "/clear-site-data"), .clearSiteData)
        XCTAssertEqual(refusal("GET", "/clear-site-data")?.status, 405, "a link or an image cannot clear it")
    }

    func testClearSiteData_whenTheSessionEnds_thenEveryCookieButTheGatewaysExpiresAndTheCacheAndStorageGo() {
        let request = HTTPRequest(
            method: "POST", target: "/clear-site-data",
            headers: HTTPHeaders([("Cookie", "cart=3; appstate-gateway-8470=secret"), ("Cookie", "customer=ada; cart=4")]))
        let response = SiteDataClearing.response(for: request, keeping: "appstate-gateway-8470")
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(response.headers.filter { $0.name == "Clear-Site-Data" }.map(\.value), [#""cache", "storage""#])
        XCTAssertEqual(
            response.headers.filter { $0.name == "Set-Cookie" }.map(\.value), ["cart=; Max-Age=0; Path=/", "customer=; Max-Age=0; Path=/"])
    }

    func testDecide_whenAMethodIsNotAllowed_thenRefuses403WithItsName() {
        for method in ["io.appstate.Login", "io.appstate.Watch", "org.varlink.service.GetInfo", "GetTree", "io.appstate.Nope"] {
            let refused = refusal("POST", "/call/\(method)")
            XCTAssertEqual(refused?.status, 403, method)
            XCTAssertEqual(refused?.name, "io.appstate.gateway.MethodNotAllowed")
            XCTAssertEqual(refused?.parameters["method"], .string(method))
        }
    }

    func testDecide_whenTheHTTPMethodDoesNotFit_thenRefuses405WithAllow() {
        for (method, target, allowed) in [
            ("GET", "/call/io.appstate.GetTree", "POST"), ("PUT", "/call/io.appstate.GetTree", "POST"), ("POST", "/watch", "GET"),
            ("DELETE", "/", "GET"), ("POST", "/appstate.js", "GET"), ("HEAD", "/", "GET"),
        ] {
            let refused = refusal(method, target)
            XCTAssertEqual(refused?.status, 405, "\(method) \(target)")
            XCTAssertEqual(refused?.headers.first { $0.name == "Allow" }?.value, allowed, "\(method) \(target)")
        }
    }

    func testDecide_whenThePathLeavesThePagesOrNamesNothing_thenRefuses404() {
        for target in [
            "/../etc/passwd", "/a/../../etc/passwd", "/%2e%2e/etc/passwd", "/.hidden", "/a/.git/config", "//etc/passwd", "/a%5cb",
            "/a%00b", "/%zz", "/call", "/call/", "/call/io.appstate.GetTree/x",
        ] {
            let method = target.hasPrefix("/call") ? "POST" : "GET"
            XCTAssertEqual(refusal(method, target)?.status, 404, target)
        }
    }
}
