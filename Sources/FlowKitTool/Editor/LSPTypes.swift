import Foundation

// The Language Server Protocol 3.17 types the server uses (https://microsoft.github.io/language-server-protocol/
// specifications/lsp/3.17/specification/), Codable, named and shaped as the specification names them. Only the
// fields the server reads or writes are here; a client's other fields are ignored when decoding.

/// A request's id: a number or a string.
package enum LSPRequestID: Codable, Hashable, Sendable {
    case number(Int)
    case string(String)

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        }
    }
}

/// A position: a 0-based line and a 0-based character offset in UTF-16 code units (the protocol's default
/// encoding, which every client supports).
package struct LSPPosition: Codable, Hashable, Sendable, Comparable {
    package var line: Int
    package var character: Int

    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    package static func < (lhs: LSPPosition, rhs: LSPPosition) -> Bool { (lhs.line, lhs.character) < (rhs.line, rhs.character) }
}

/// A range, its end exclusive.
package struct LSPRange: Codable, Hashable, Sendable {
    package var start: LSPPosition
    package var end: LSPPosition

    package init(start: LSPPosition, end: LSPPosition) {
        self.start = start
        self.end = end
    }

    /// Whether `position` is inside it, its end included (a cursor just after a name is on it).
    package func contains(_ position: LSPPosition) -> Bool { start <= position && position <= end }
}

/// A place in a document.
package struct LSPLocation: Codable, Hashable, Sendable {
    package var uri: String
    package var range: LSPRange
}

/// A replacement in a document.
package struct LSPTextEdit: Codable, Hashable, Sendable {
    package var range: LSPRange
    package var newText: String
}

/// Edits of many documents.
package struct LSPWorkspaceEdit: Codable, Hashable, Sendable {
    package var changes: [String: [LSPTextEdit]]
}

/// A related place of a diagnostic (where the witness issue's run is shown).
package struct LSPDiagnosticRelatedInformation: Codable, Hashable, Sendable {
    package var location: LSPLocation
    package var message: String
}

/// A diagnostic: lint's finding, its rule as `code`.
package struct LSPDiagnostic: Codable, Hashable, Sendable {
    package var range: LSPRange
    /// 1 error, 2 warning, 3 information, 4 hint.
    package var severity: Int
    package var code: String
    package var source: String
    package var message: String
    package var relatedInformation: [LSPDiagnosticRelatedInformation]?
}

/// `textDocument/publishDiagnostics`'s parameters.
package struct LSPPublishDiagnosticsParams: Codable, Sendable {
    package var uri: String
    package var version: Int?
    package var diagnostics: [LSPDiagnostic]
}

/// A document as `didOpen` gives it.
package struct LSPTextDocumentItem: Codable, Sendable {
    package var uri: String
    package var languageId: String?
    package var version: Int
    package var text: String
}

/// A document by its URI.
package struct LSPTextDocumentIdentifier: Codable, Sendable {
    package var uri: String
}

/// A document by its URI and version.
package struct LSPVersionedTextDocumentIdentifier: Codable, Sendable {
    package var uri: String
    package var version: Int
}

/// One change of `didChange`: with a range, a replacement of it; without, the whole text.
package struct LSPTextDocumentContentChangeEvent: Codable, Sendable {
    package var range: LSPRange?
    package var text: String
}

package struct LSPDidOpenParams: Codable, Sendable {
    package var textDocument: LSPTextDocumentItem
}

package struct LSPDidChangeParams: Codable, Sendable {
    package var textDocument: LSPVersionedTextDocumentIdentifier
    package var contentChanges: [LSPTextDocumentContentChangeEvent]
}

package struct LSPDidCloseParams: Codable, Sendable {
    package var textDocument: LSPTextDocumentIdentifier
}

/// A position in a document: the parameters of definition, references, hover, completion, rename.
package struct LSPTextDocumentPositionParams: Codable, Sendable {
    package var textDocument: LSPTextDocumentIdentifier
    package var position: LSPPosition
}

package struct LSPRenameParams: Codable, Sendable {
    package var textDocument: LSPTextDocumentIdentifier
    package var position: LSPPosition
    package var newName: String
}

package struct LSPCodeActionParams: Codable, Sendable {
    package struct Context: Codable, Sendable {
        package var diagnostics: [LSPDiagnostic]
    }
    package var textDocument: LSPTextDocumentIdentifier
    package var range: LSPRange
    package var context: Context
}

package struct LSPCodeAction: Codable, Sendable {
    package var title: String
    package var kind: String
    package var diagnostics: [LSPDiagnostic]?
    package var isPreferred: Bool?
    package var edit: LSPWorkspaceEdit
}

package struct LSPCompletionItem: Codable, Hashable, Sendable {
    package var label: String
    /// 3 function, 6 variable, 10 property, 17 file, 20 enum member, 23 event, 21 constant.
    package var kind: Int
    package var detail: String?
}

package struct LSPCompletionList: Codable, Sendable {
    package var isIncomplete: Bool
    package var items: [LSPCompletionItem]
}

package struct LSPMarkupContent: Codable, Sendable {
    package var kind: String
    package var value: String
}

package struct LSPHover: Codable, Sendable {
    package var contents: LSPMarkupContent
    package var range: LSPRange?
}

package struct LSPDocumentSymbol: Codable, Sendable {
    package var name: String
    package var detail: String?
    /// 2 module, 5 class, 6 method, 8 field, 12 function, 13 variable, 24 event, 22 enum member.
    package var kind: Int
    package var range: LSPRange
    package var selectionRange: LSPRange
    package var children: [LSPDocumentSymbol]?
}

package struct LSPPrepareRenameResult: Codable, Sendable {
    package var range: LSPRange
    package var placeholder: String
}

/// A response error (JSON-RPC's codes: -32700 parse error, -32600 invalid request, -32601 method not found,
/// -32602 invalid params, -32603 internal error; LSP's -32002 server not initialized, -32803 request failed).
package struct LSPResponseError: Codable, Error, Sendable {
    package var code: Int
    package var message: String

    package init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    static func invalidParams(_ message: String) -> LSPResponseError { LSPResponseError(code: -32602, message: message) }
    static func requestFailed(_ message: String) -> LSPResponseError { LSPResponseError(code: -32803, message: message) }
}
