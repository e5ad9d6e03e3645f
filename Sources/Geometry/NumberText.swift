extension Double {
    /// The shortest text that reads back as this value, with no ".0" on a whole number: how
    /// specs, configs, `plan` and messages print numbers, so what is printed can be pasted back.
    package var plainText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int(self)) }
        return String(self)
    }
}
