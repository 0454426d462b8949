import AppStateCore
import AppStateIPC
import ServicePorts

/// `io.appstate.kiosk`, appstate-kiosk's own interface: its status and a screenshot.
enum KioskInterface {
    /// The interface name.
    static let name = "io.appstate.kiosk"

    /// The interface as the status socket hosts it, with its text for `GetInterfaceDescription`.
    static var hosted: VarlinkInterfaceDescription {
        VarlinkInterfaceDescription(name: name, description: String(decoding: PackageResources.io_appstate_kiosk_varlink, as: UTF8.self))
    }

    /// `io.appstate.kiosk.NoBrowser`: the browser is being restarted.
    /// - Parameter reason: Why, in words.
    static func noBrowser(reason: String) -> VarlinkError {
        VarlinkError(name: KioskErrorName.noBrowser.rawValue, parameters: ["reason": .string(reason)])
    }
}
