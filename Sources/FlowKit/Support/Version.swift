/// The version of the FlowKit library, and of the `flowkit` command built on it (`flowkit --version`, SARIF's
/// `tool.driver.version`).
package enum FlowKitVersion {
    /// The semantic version of this release.
    package static let current = "0.1.0"
}
