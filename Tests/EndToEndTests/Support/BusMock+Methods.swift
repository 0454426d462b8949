import Foundation

extension BusMock {
    /// Gives the mocked keyboard's object a method, with dbusmock's `AddMethod`: `code` runs in
    /// the mock when the method is called, in Python, with the call's `args` and the object as
    /// `self`; every call is logged for ``calls(of:)``.
    /// - Parameters:
    ///   - interface: The method's interface.
    ///   - name: The method's name.
    ///   - signature: Its arguments' D-Bus signature, e.g. `b`; empty for none.
    ///   - code: What it does; empty to do nothing.
    func addMethod(_ interface: String, _ name: String, signature: String = "", code: String = "") throws {
        try gdbus(keyboardObject.path, "org.freedesktop.DBus.Mock.AddMethod", interface, name, signature, "", code)
    }

    /// The arguments of each call of a method added with ``addMethod(_:_:signature:code:)``,
    /// oldest first, each in GVariant text as gdbus prints them: `<true>`, or empty for none.
    func calls(of method: String) throws -> [String] {
        let log = try gdbus(keyboardObject.path, "org.freedesktop.DBus.Mock.GetMethodCalls", method)
        // `([(uint64 1764290000, [<true>]), (1764290001, [<false>])],)`: GVariant text names
        // the type of an array's first element alone, and of an empty array (`@av []`).
        return log.matches(of: /\((?:uint64 )?[0-9]+, (?:@av )?\[([^\]]*)\]\)/).map { String($0.output.1) }
    }

    /// A property of the mocked keyboard's object, in GVariant text, e.g. `<true>`.
    func property(_ interface: String, _ name: String) throws -> String {
        let reply = try gdbus(keyboardObject.path, "org.freedesktop.DBus.Properties.Get", interface, name)
        return reply.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "(),"))
    }
}
