import Varlink

/// What each step of the certification answers, as Varlink's implementations agree: the
/// service answers them, and checks that the client sends each back in the next call; the
/// client checks that the service answered them.
enum CertificationValues {
    static let test01 = Test01.Reply(bool: true)
    static let test02 = Test02.Reply(int: 1)
    static let test03 = Test03.Reply(float: 1.0)
    static let test04 = Test04.Reply(string: "ping")
    static let test05 = Test05.Reply(bool: false, int: 2, float: .pi, string: "a lot of string")
    static let test06 = Test06.Reply(structure: .init(bool: false, int: 2, float: .pi, string: "a lot of string"))
    static let test07 = Test07.Reply(map: ["foo": "Foo", "bar": "Bar"])
    static let test08 = Test08.Reply(set: ["one", "two", "three"])
    static let test09 = Test09.Reply(
        mytype: MyType(
            object: ["method": "org.varlink.certification.Test09", "parameters": ["map": ["foo": "Foo", "bar": "Bar"]]],
            enumeration: .two,
            structure: .init(first: 1, second: "2"),
            array: ["one", "two", "three"],
            dictionary: ["foo": "Foo", "bar": "Bar"],
            stringset: ["one", "two", "three"],
            nullable: nil,
            nullable_array_struct: nil,
            interface: Interface(foo: [nil, ["foo": .foo, "bar": .bar], nil, ["one": .foo, "two": .bar]], anon: .init(foo: true, bar: false))
        ))
    /// The replies of Test10, one string each, in order.
    static let test10 = (1...10).map { "Reply number \($0)" }
    static let end = End.Reply(all_ok: true)
}
