@testable import FlowKit
import Testing

/// A position keeps its line and column in 32 bits each (docs/format.md, "Positions"): every value up to
/// `Int32.max` round-trips, one beyond is reported as `Int32.max`, and the order is by line, then column.
@Suite struct SourcePositionTests {
    @Test func valuesInRangeRoundTrip() {
        for value in [1, 2, 255, 256, 65_535, 65_536, 1 << 24, Int(Int32.max) - 1, Int(Int32.max)] {
            let position = SourcePosition(line: value, column: value / 2 + 1)
            #expect(position.line == value)
            #expect(position.column == value / 2 + 1)
            var changed = position
            changed.line = 7
            changed.column = value
            #expect(changed.line == 7 && changed.column == value)
        }
    }

    @Test func valuesBeyond32BitsAreReportedAsTheLargest() {
        let far = SourcePosition(line: Int(Int32.max) + 1, column: Int.max)
        #expect(far.line == Int(Int32.max))
        #expect(far.column == Int(Int32.max))
        #expect(far.description == "2147483647:2147483647")
        var moved = SourcePosition.start
        moved.line = 1 << 40
        #expect(moved.line == Int(Int32.max))
    }

    @Test func orderIsLineThenColumn() {
        let positions = [(1, 1), (1, 2), (1, 1 << 20), (2, 1), (70_000, 3), (70_000, 4), (Int(Int32.max), 1)]
            .map { SourcePosition(line: $0.0, column: $0.1) }
        for (index, position) in positions.enumerated() {
            for (other, later) in positions.enumerated() {
                #expect((position < later) == (index < other))
                #expect((position == later) == (index == other))
            }
        }
    }
}
