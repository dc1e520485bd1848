#if os(Linux)
    import CMalloc
#endif

/// glibc's malloc keeps an arena per thread that found the others locked, up to 8 per core, and each
/// keeps the pages it touched. Darwin's allocator has no such knob, so there this does nothing.
public enum MallocArenas {
    /// Caps the arenas at `count` (glibc's `mallopt(M_ARENA_MAX, …)`); nothing elsewhere.
    public static func limit(to count: Int) {
        #if os(Linux)
            _ = mallopt(M_ARENA_MAX, Int32(count))
        #endif
    }
}
