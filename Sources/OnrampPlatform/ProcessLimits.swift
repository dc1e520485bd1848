#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open file descriptors, and the cores it may run on.
public enum ProcessLimits {
    /// Raises the soft descriptor limit as far as the hard one allows and returns the soft limit now in
    /// force. Darwin refuses a soft limit above `OPEN_MAX` even when the hard one is unlimited, so there it
    /// is raised to the smaller of the two.
    public static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(descriptorResource, &limit) == 0 else { return 1024 }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
            wanted = Swift.min(wanted, rlim_t(OPEN_MAX))
        #endif
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(descriptorResource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Cores online now.
    public static var onlineCores: Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    private static var descriptorResource: Int32 {
        #if canImport(Glibc)
            Int32(RLIMIT_NOFILE.rawValue)
        #else
            RLIMIT_NOFILE
        #endif
    }
}
