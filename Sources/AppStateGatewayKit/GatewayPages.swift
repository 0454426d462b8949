import AppStateHTTP
import Glibc

/// The pages a gateway serves at `/`: the example kiosk page built into the binary, or a
/// front-end's own directory (`--pages DIR`). `appstate.js` is served at `/appstate.js` either
/// way, from the binary, so that the module always speaks this gateway's protocol.
public enum GatewayPages: Hashable, Sendable {
    /// The example kiosk page (`Kiosk/`, described in `examples/web-kiosk/README.md`), embedded.
    case embedded
    /// The files under a directory: `/` is its `index.html`.
    case directory(String)

    /// The largest file served from a directory, so that one request cannot make the gateway
    /// read a file of any size into memory.
    public static let maximumFileSize = 16 << 20

    /// The embedded files, by name.
    private static let embeddedFiles: [String: [UInt8]] = [
        "index.html": PackageResources.index_html,
        "kiosk.css": PackageResources.kiosk_css,
        "kiosk.js": PackageResources.kiosk_js,
    ]

    /// The module's source.
    public static var module: [UInt8] { PackageResources.appstate_js }

    /// Reads a file.
    /// - Parameter path: Its path below the pages, as ``GatewayRoute/page(_:)`` gives it.
    /// - Returns: The answer: the file with its type, or 404.
    public func response(for path: String) -> HTTPResponse {
        let bytes: [UInt8]?
        switch self {
        case .embedded: bytes = Self.embeddedFiles[path]
        case .directory(let directory): bytes = Self.contents(of: path, below: directory)
        }
        guard let bytes else {
            return .json(status: 404, GatewayRefusal.notFound("/" + path).json)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", Self.contentType(of: path))], body: bytes)
    }

    /// The media type of a file, by its extension.
    /// - Parameter path: The file's path.
    public static func contentType(of path: String) -> String {
        let types = [
            "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8", "json": "application/json",
            "txt": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg",
            "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "ico": "image/x-icon", "woff": "font/woff",
            "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf", "wasm": "application/wasm",
        ]
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// A regular file's bytes, if its real path (symbolic links resolved) lies below the
    /// directory's.
    private static func contents(of path: String, below directory: String) -> [UInt8]? {
        guard let root = realPath(directory), let file = realPath(directory + "/" + path), file.hasPrefix(root + "/") else { return nil }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= maximumFileSize else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            offset += count
        }
        return bytes
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
