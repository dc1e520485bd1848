#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
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

/// Writes the key a client's connections are counted under: its IPv4 address, or for IPv6 the /64
/// it belongs to (`2001:db8:1:2::/64`; one subscriber usually holds a whole /64). Returns 0 on success.
static inline int onramp_sockaddr_key(const struct sockaddr *address, char *buffer, socklen_t length) {
    if (address != NULL && address->sa_family == AF_INET6) {
        struct in6_addr prefix = ((const struct sockaddr_in6 *)address)->sin6_addr;
        if (!IN6_IS_ADDR_V4MAPPED(&prefix)) {
            for (int i = 8; i < 16; i++) prefix.s6_addr[i] = 0;
            if (inet_ntop(AF_INET6, &prefix, buffer, length) == NULL) return -1;
            size_t used = strlen(buffer);
            if (used + 4 > (size_t)length) return -1;
            memcpy(buffer + used, "/64", 4);
            return 0;
        }
    }
    return onramp_sockaddr_text(address, buffer, length);
}

/// Writes the client's IP address as text into `buffer`; returns 0 on success.
static inline int onramp_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return onramp_sockaddr_text(info->client_addr, buffer, length);
}

/// The key (see onramp_sockaddr_key) of the connection's client; returns 0 on success.
static inline int onramp_mhd_client_key(struct MHD_Connection *connection, char *buffer, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return onramp_sockaddr_key(info->client_addr, buffer, length);
}

/// The connection's socket, or -1.
static inline int onramp_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The pointer the connection-notify callback stored in the connection's socket context, or NULL.
static inline void *onramp_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
