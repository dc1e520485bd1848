import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells a waiting loop that a file was written: ``descriptor`` polls readable (`poll(2)`, `POLLIN`)
/// after a write, and ``drain()`` consumes that. inotify on Linux; a kqueue watching the file's vnode
/// on Darwin (a kqueue descriptor polls readable while it holds events). Waiting costs nothing; a wake
/// costs one `read(2)` or `kevent(2)`. When the file is removed and made again, the next drain watches
/// the new one.
public final class FileWriteWatch: Sendable {
    /// The descriptor to poll.
    public let descriptor: Int32
    private let path: String
    #if canImport(Darwin)
        /// The watched file, opened for events only; negative after it was removed.
        private let watched: Mutex<Int32>
    #endif

    /// A watch of the file at `path`; `nil` when the platform refuses one or the file does not exist.
    public init?(path: String) {
        self.path = path
        #if canImport(Glibc)
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            guard inotify_add_watch(descriptor, path, UInt32(IN_MODIFY)) >= 0 else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
        #else
            let queue = kqueue()
            guard queue >= 0 else { return nil }
            let file = Self.watch(path, on: queue)
            guard file >= 0 else {
                close(queue)
                return nil
            }
            descriptor = queue
            watched = Mutex(file)
        #endif
    }

    deinit {
        close(descriptor)
        #if canImport(Darwin)
            watched.withLock { if $0 >= 0 { close($0) } }
        #endif
    }

    /// Consumes every queued event; when the file was removed, watches it again should it exist by now.
    public func drain() {
        #if canImport(Glibc)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var watchDropped = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.withUnsafeBytes {
                        $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    }
                    if event.mask & UInt32(IN_IGNORED) != 0 { watchDropped = true }
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
            if watchDropped { _ = inotify_add_watch(descriptor, path, UInt32(IN_MODIFY)) }
        #else
            var events = [kevent](repeating: kevent(), count: 16)
            var removed = false
            var immediately = timespec()
            while true {
                let count = kevent(descriptor, nil, 0, &events, Int32(events.count), &immediately)
                guard count > 0 else { break }
                for event in events.prefix(Int(count)) where event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 {
                    removed = true
                }
            }
            watched.withLock { file in
                guard removed || file < 0 else { return }
                if file >= 0 { close(file) }
                file = Self.watch(path, on: descriptor)
            }
        #endif
    }

    #if canImport(Darwin)
        /// Opens `path` for events and adds its writes to `queue`; the file's descriptor, or -1.
        private static func watch(_ path: String, on queue: Int32) -> Int32 {
            let file = open(path, O_EVTONLY | O_CLOEXEC)
            guard file >= 0 else { return -1 }
            var change = kevent(
                ident: UInt(file), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME), data: 0, udata: nil)
            guard kevent(queue, &change, 1, nil, 0, nil) == 0 else {
                close(file)
                return -1
            }
            return file
        }
    #endif
}
