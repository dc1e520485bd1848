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

static inline CURLcode onramp_curl_set_prereq_function(CURL *handle, curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
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
