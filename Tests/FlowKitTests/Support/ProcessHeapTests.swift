import Testing
@testable import FlowKit

/// `ProcessHeap.growInLargeSteps()` reaches glibc's `mallopt` (the command calls it first thing; what it saves is
/// measured in bench/, not here).
@Suite struct ProcessHeapTests {
    #if canImport(Glibc)
    @Test func glibcTakesTheGrowthStep() {
        #expect(ProcessHeap.growInLargeSteps())
    }
    #endif
}
