/* The ceiling of onramp's HTTP design: libmicrohttpd alone, configured as `onramp serve` configures it
 * (internal polling thread, epoll, turbo, a thread pool), answering every request with the /livez body
 * from a C handler. bench/http.sh builds it with gcc and measures it beside nginx and onramp: what onramp
 * loses against it is the cost of its own edge (Swift request and response, router, bookkeeping).
 * Usage: mhd-return-200 PORT [THREADS] */
#include <microhttpd.h>
#include <stdlib.h>
#include <unistd.h>

static const char body[] = "{\"status\":\"ok\"}";

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **request) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload; (void)upload_size;
    /* Answer on the second call, once the head is in (as onramp does, to keep the connection alive). */
    if (*request == NULL) {
        *request = (void *)1;
        return MHD_YES;
    }
    struct MHD_Response *response =
        MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result queued = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return queued;
}

int main(int argc, char **argv) {
    if (argc < 2) return 64;
    unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_TURBO;
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, (uint16_t)atoi(argv[1]), NULL, NULL, answer, NULL,
                                                 MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_END);
    if (daemon == NULL) return 1;
    pause();
    return 0;
}
