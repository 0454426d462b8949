/// Why the generator could not read the code wayland-scanner wrote.
struct ScannerCodeError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
