/// The URLs a kiosk may show: http and https with a host, and file.
public enum KioskURL {
    /// Whether the browser may be sent to `url`.
    /// - Parameter url: The URL.
    public static func isShowable(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return false }
        let rest = url[url.index(after: colon)...]
        switch url[..<colon].lowercased() {
        case "http", "https": return rest.hasPrefix("//") && rest.dropFirst(2).first.map { $0 != "/" } == true
        case "file": return !rest.isEmpty
        default: return false
        }
    }
}
