import FlowKit
import Foundation

/// A report to write beside a command's output: `FORMAT:PATH` (`sarif:flowkit.sarif`), read once from the command
/// line.
package struct ReportDestination<Format: RawRepresentable & CaseIterable & Sendable & Equatable>: Sendable, Equatable where Format.RawValue == String {
    /// The report's format.
    package var format: Format
    /// Where to write it.
    package var path: String

    package init(format: Format, path: String) {
        self.format = format
        self.path = path
    }

    /// `FORMAT:PATH`, or nil when the text is not that (an unknown format, no path).
    package init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":"), let format = Format(rawValue: String(text[..<colon])) else { return nil }
        let path = String(text[text.index(after: colon)...])
        guard !path.isEmpty else { return nil }
        self.init(format: format, path: path)
    }

}
