import Foundation
import TestSupport

extension BusMock {
    /// Gives the mocked squeekboard its `SetVisible(b)` method, which shows or hides it as
    /// squeekboard does: by setting `Visible`, which dbusmock follows with `PropertiesChanged`.
    func addSetVisible() throws {
        let object = keyboardObject
        try gdbus(
            object.path, "org.freedesktop.DBus.Mock.AddMethod", object.interface, "SetVisible", "b", "",
            "self.Set('\(object.interface)', '\(object.property)', args[0])")
    }

    /// The values `SetVisible` was called with, oldest first, as `true` or `false`.
    func setVisibleCalls() throws -> [String] {
        // gdbus prints the calls as ([(uint64 …, [<true>]), …],).
        let printed = try gdbus(keyboardObject.path, "org.freedesktop.DBus.Mock.GetMethodCalls", "SetVisible")
        return printed.components(separatedBy: "[<").dropFirst().compactMap { $0.split(separator: ">").first.map(String.init) }
    }
}
