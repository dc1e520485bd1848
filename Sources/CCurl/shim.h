#include <arpa/inet.h>
#include <netinet/in.h>
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call;
// these wrap them, one per argument type.

static inline CURLcode onramp_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode onramp_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode onramp_curl_set_write_function(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode onramp_curl_set_opensocket_function(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

// The address a `curl_sockaddr` holds as numeric text (`inet_ntop`), into `text` of `size` bytes; its
// `addr` member is declared a `struct sockaddr` but holds `addrlen` bytes (a `sockaddr_in6` for IPv6).
static inline int onramp_curl_sockaddr_text(const struct curl_sockaddr *address, char *text, socklen_t size) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
        return inet_ntop(AF_INET, &v4->sin_addr, text, size) != NULL;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
        return inet_ntop(AF_INET6, &v6->sin6_addr, text, size) != NULL;
    }
    return 0;
}

static inline CURLcode onramp_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode onramp_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode onramp_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
