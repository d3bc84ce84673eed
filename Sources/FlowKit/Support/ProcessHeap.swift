import Foundation

/// How a short-lived process asks the C library's allocator for memory: for the `flowkit` command, not a library
/// user (package access).
package enum ProcessHeap {
    /// The extra memory the heap is grown by each time it must grow, and kept when memory is freed.
    package static let growthStep = 16 << 20

    /// Lets the heap grow, and stay, in steps of `growthStep` (glibc's `M_TOP_PAD`) rather than 128 KiB at a time:
    /// a lint of a 10,000-step flow then asks the kernel for memory a few times rather than a few hundred, and
    /// reuses what it frees rather than handing it back and faulting it in again. The pages reserved are not
    /// touched, so a process's resident memory does not grow.
    ///
    /// For a command-line process such as `flowkit`, called once before any work; an app leaves its allocator
    /// alone. Returns false where the C library has no `mallopt`, or where an allocator that replaces glibc's (the
    /// address sanitizer's) refuses it; then nothing changes.
    @discardableResult
    package static func growInLargeSteps() -> Bool {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let topPad: Int32 = -2
        return unsafeBitCast(symbol, to: Mallopt.self)(topPad, Int32(growthStep)) == 1
    }
}
