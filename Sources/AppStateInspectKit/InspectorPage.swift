/// The inspector's one page: HTML, CSS and JavaScript in one file (`inspector.html`),
/// embedded in the binary so that the page works with no network and no files beside it.
public enum InspectorPage {
    /// The page's bytes, UTF-8.
    public static var bytes: [UInt8] { PackageResources.inspector_html }
}
