#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// `EVP_PKEY_PUBLIC_KEY` is a composite macro Swift does not import.
static const int onramp_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;

/// An HMAC-SHA256 context keyed with a dummy key: a template that `EVP_MAC_CTX_dup` copies and
/// `EVP_MAC_init` re-keys, so a MAC costs neither a fetch of the algorithm nor of its digest by name.
/// NULL when OpenSSL cannot make one.
static inline EVP_MAC_CTX *onramp_hmac_sha256_template(void) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (context == NULL) return NULL;
    static const unsigned char dummy = 0;
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string("digest", (char *)"SHA256", 0),
        OSSL_PARAM_construct_end(),
    };
    if (EVP_MAC_init(context, &dummy, 1, parameters) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}
