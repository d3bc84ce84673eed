extension Dictionary where Key == String {
    /// The most entries a dictionary has for `value(comparingKeys:)` to compare keys rather than hash.
    static var fewKeys: Int { 4 }

    /// The value for `key`. In a dictionary of a few entries it is found by comparing keys, with no hashing: the
    /// run's results and states are mostly that small, and hashing a name costs more than comparing a handful of
    /// names, which is mostly one machine comparison each. A larger dictionary is looked up.
    @inline(__always)
    func value(comparingKeys key: String) -> Value? {
        guard count <= Self.fewKeys else { return self[key] }
        for (name, value) in self where name == key { return value }
        return nil
    }
}

extension Dictionary where Key == String {
    /// Sets `key` to `value` and gives the value it had, as `updateValue(_:forKey:)` does; a key already among a
    /// few entries is found by comparing keys (see `value(comparingKeys:)`), a new key or a larger dictionary is
    /// hashed.
    @inline(__always)
    mutating func updateValue(_ value: Value, comparingKeys key: String) -> Value? {
        if count <= Self.fewKeys {
            var position = startIndex
            while position != endIndex {
                if keys[position] == key {
                    var replaced = value
                    swap(&values[position], &replaced)
                    return replaced
                }
                formIndex(after: &position)
            }
        }
        return updateValue(value, forKey: key)
    }
}
