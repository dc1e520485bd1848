import CMicroHTTPD
import Foundation

/// The thread that accepts connections and deals them out in turn to the workers (libmicrohttpd
/// daemons with one thread each) with `MHD_add_connection`: connection *k* goes to worker *k* mod *n*.
///
/// libmicrohttpd's own accept, with a pool of worker threads on one listening socket, lets whichever
/// worker wakes first take up to eleven connections in a row, so a client that opens its connections
/// in a burst (every load generator, a proxy's pool) finds them piled onto a few workers. A worker
/// serves its connections one request at a time, and the handlers block (a durable commit, a store
/// query), so requests queued behind busy workers while the others sat idle: on one core this left the
/// group commit with one transaction per commit in about one run in three of `bench/app2app.sh`
/// (1,250 sessions/s against 2,000–2,400/s when the burst happened to spread).
///
/// `@unchecked Sendable`: `running` is written by ``start()`` and ``stop()``, which the server calls in
/// that order from one place; `next` belongs to the loop's thread.
final class AcceptLoop: @unchecked Sendable {
    private let listening: ListeningSocket
    private let daemons: [DaemonHandle]
    /// The worker the next connection goes to (only the loop's thread touches it).
    private var next = 0
    /// The read and write ends of the pipe that wakes the loop to stop.
    private let wake: (read: Int32, write: Int32)
    /// Signalled by the loop's thread as it ends; `nil` until ``start()`` and after ``stop()``.
    private var running: DispatchSemaphore?

    /// A loop for the bound and listening `listening`, handing connections to `daemons` (started with
    /// `MHD_USE_NO_LISTEN_SOCKET` and `MHD_USE_ITC`, so that an added connection wakes its worker).
    init(listening: ListeningSocket, daemons: [DaemonHandle]) throws(HTTPServer.StartError) {
        precondition(!daemons.isEmpty, "an accept loop needs a worker")
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw HTTPServer.StartError(message: "cannot create the accept loop's wake-up pipe")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let flags = fcntl(listening.descriptor, F_GETFL)
        guard flags >= 0, fcntl(listening.descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            close(ends[0])
            close(ends[1])
            throw HTTPServer.StartError(message: "cannot make the listening socket non-blocking")
        }
        self.listening = listening
        self.daemons = daemons
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Starts the thread.
    func start() {
        let ended = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "accept"
        thread.start()
        running = ended
    }

    /// Stops accepting: wakes the thread, waits for it to end, and closes the listening socket
    /// (connections still in its backlog are refused).
    func stop() {
        guard let running else { return }
        self.running = nil
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        running.wait()
        close(listening.descriptor)
    }

    private func run() {
        var descriptors = [
            pollfd(fd: listening.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 || descriptors[0].revents & Int16(POLLNVAL) != 0 { return }
            if descriptors[0].revents != 0 { acceptPending() }
        }
    }

    /// Accepts every connection waiting in the backlog.
    private func acceptPending() {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listening.descriptor, $0, &length)
                }
            }
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case ECONNABORTED, EPROTO, EINTR: continue  // the client gave up before it was accepted
                default:
                    // Out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM): the connections wait in
                    // the backlog until some close, without a busy loop.
                    usleep(10_000)
                    return
                }
            }
            // libmicrohttpd makes the socket non-blocking and close-on-exec (`MHD_USE_TURBO`), and closes it
            // itself if it cannot take it. Admission (``ConnectionGuard``) happens on the worker.
            let worker = daemons[next]
            next = (next + 1) % daemons.count
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    MHD_add_connection(worker.pointer, client, $0, length)
                }
            }
        }
    }
}
