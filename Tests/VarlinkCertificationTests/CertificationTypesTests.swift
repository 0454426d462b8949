import TestSupport
import Varlink
import XCTest

@testable import VarlinkCertification

/// The Swift the build generates from org.varlink.certification: maps, sets, nested anonymous
/// structs, enumerations and nullable elements travel as Varlink's implementations send them.
final class CertificationTypesTests: AppStateTestCase {
    /// Test09's `mytype`, as Python's certification service sends it.
    private let sent: JSONValue = [
        "object": ["method": "org.varlink.certification.Test09", "parameters": ["map": ["foo": "Foo", "bar": "Bar"]]],
        "enum": "two",
        "struct": ["first": 1, "second": "2"],
        "array": ["one", "two", "three"],
        "dictionary": ["foo": "Foo", "bar": "Bar"],
        "stringset": ["one": [:], "two": [:], "three": [:]],
        "interface": [
            "foo": [nil, ["foo": "foo", "bar": "bar"], nil, ["one": "foo", "two": "bar"]],
            "anon": ["foo": true, "bar": false],
        ],
    ]

    func testMyType_whenEncoded_thenTravelsAsVarlinksImplementationsSendIt() throws {
        let mytype = CertificationValues.test09.mytype
        XCTAssertEqual(JSONValue.object(mytype.jsonMembers), sent)
        var text: [UInt8] = []
        mytype.writeJSON(into: &text)
        XCTAssertEqual(try JSONParser().parse(text), sent, "the JSON text and the JSON values are one encoding")
    }

    func testMyType_whenDecodedWithItsNullsSent_thenEqualsTheValue() throws {
        var members = try XCTUnwrap(sent.objectValue)
        members["nullable"] = nil
        members["nullable_array_struct"] = .null
        XCTAssertEqual(try MyType(parameters: members), CertificationValues.test09.mytype)
    }

    func testSet_whenAMemberIsNotAnEmptyObject_thenInvalidParameterNamesIt() {
        XCTAssertThrowsError(try Test09.Parameters(parameters: ["client_id": "c", "set": ["one": [:], "two": "2"]])) {
            XCTAssertEqual($0 as? VarlinkError, .invalidParameter("set"))
        }
    }

    func testEnumeration_whenAValueIsUndeclared_thenInvalidParameterNamesIt() throws {
        var members = try XCTUnwrap(sent.objectValue)
        members["enum"] = "four"
        XCTAssertThrowsError(try MyType(parameters: members)) {
            XCTAssertEqual($0 as? VarlinkError, .invalidParameter("enum"))
        }
    }

    func testAnonymousStruct_whenAMemberIsUndeclared_thenInvalidParameterNamesIt() throws {
        XCTAssertThrowsError(
            try Test07.Parameters(parameters: ["client_id": "c", "struct": ["bool": true, "int": 1, "float": 1, "string": "", "x": 1]])
        ) {
            XCTAssertEqual($0 as? VarlinkError, .invalidParameter("struct.x"))
        }
    }
}
