import Foundation

/// How a short-lived process asks the C library's allocator for memory: for the `flowkit` command, not a library
/// user (package access).
package enum ProcessHeap {
    /// The extra memory the heap is grown by each time it must grow (glibc's `M_TOP_PAD`).
    package static let growthStep = 4 << 20
    /// The smallest block that glibc may map on its own, and unmap when it is freed (`M_MMAP_THRESHOLD`).
    package static let ownPagesFrom = 64 << 10

    /// Tunes glibc's allocator for one short command over a large flow:
    ///
    /// - the heap grows `growthStep` at a time rather than 128 KiB, so a lint of a 10,000-step flow asks the kernel
    ///   for memory a few times rather than a few hundred (the pages reserved are not touched until used);
    /// - a block of `ownPagesFrom` or more that neither the free lists nor the heap's top can hold is mapped on its
    ///   own, and handed back when freed, rather than growing the heap. With the 16 MiB step used before, the top
    ///   always had room: every large block (a large flow's graphs and the analyses' per-node arrays, 120-800 KB)
    ///   was carved from it, and once the freed syntax tree's holes (up to 720 KB, between the model's blocks)
    ///   could not take them they took fresh pages, so the heap's resident size grew to about twice what was in
    ///   use. The smaller step is most of the change; the lower threshold maps blocks from 64 KiB rather than 128.
    ///
    /// For a command-line process such as `flowkit`, called once before any work; an app leaves its allocator
    /// alone. A `GLIBC_TUNABLES` setting of either is overridden. Returns false where the C library has no
    /// `mallopt`, or where an allocator that replaces glibc's (the address sanitizer's) refuses either setting;
    /// whatever was accepted stays.
    @discardableResult
    package static func tuneForOneCommand() -> Bool {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let topPad: Int32 = -2
        let mmapThreshold: Int32 = -3
        let padded = mallopt(topPad, Int32(growthStep)) == 1
        let threshold = mallopt(mmapThreshold, Int32(ownPagesFrom)) == 1
        return padded && threshold
    }
}
