#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Writes the client's IP address as text into `buffer`; returns 0 on success (MHD_get_connection_info
/// is variadic, which Swift cannot call).
#include <arpa/inet.h>
#include <netinet/in.h>
static inline int onramp_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, length) ? 0 : -1;
    }
    if (address->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, length) ? 0 : -1;
    }
    return -1;
}
