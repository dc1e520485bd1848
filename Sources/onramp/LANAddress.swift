import Foundation

/// The address other devices on the network reach this machine at: the first IPv4 address of an interface
/// that is up and not loopback (a phone on the same Wi-Fi opens links made with it; `0.0.0.0` it cannot).
enum LANAddress {
    /// The first such address, or nil when the machine has none.
    static func first() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var candidate: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = candidate {
            defer { candidate = entry.pointee.ifa_next }
            let flags = entry.pointee.ifa_flags
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & UInt32(IFF_UP) != 0, flags & UInt32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let written = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 -> Bool in
                var bytes = ipv4.pointee.sin_addr
                return inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count)) != nil
            }
            if written { return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        return nil
    }
}
