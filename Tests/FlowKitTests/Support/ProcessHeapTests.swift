import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// `ProcessHeap.tuneForOneCommand()` reaches glibc's `mallopt` (the command calls it first thing; what it saves is
/// measured in bench/, not here).
@Suite struct ProcessHeapTests {
    #if canImport(Glibc)
    @Test func glibcTakesTheSettings() {
        // Under the address sanitizer, its own allocator answers `mallopt`, and refuses them.
        let sanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        #expect(ProcessHeap.tuneForOneCommand() == !sanitized)
    }
    #endif
}
