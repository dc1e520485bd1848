#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, which Swift cannot call; these wrap the few uses.

/// Writes a socket address's IP as text into `buffer`; returns 0 on success.
static inline int onramp_sockaddr_text(const struct sockaddr *address, char *buffer, socklen_t length) {
    if (address == NULL) return -1;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, length) ? 0 : -1;
    }
    if (address->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, length) ? 0 : -1;
    }
    return -1;
}

/// Writes the client's IP address as text into `buffer`; returns 0 on success.
static inline int onramp_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return onramp_sockaddr_text(info->client_addr, buffer, length);
}

/// The connection's socket, or -1.
static inline int onramp_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
