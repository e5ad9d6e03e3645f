#if FUZZING
    /// A fuzzing build runs no build tool (Package.swift), so it names no rendering code.
    let renderingSourcesDigest = String(repeating: "0", count: 64)
#endif
