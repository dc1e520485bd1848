/* The reference of the attested-session row, counted: one ECDSA P-256 signature check as
 * `openssl speed ecdsap256` makes it (EVP_PKEY_verify of a SHA-256-sized digest with a parsed key), in a
 * loop, so that bench/instructions.sh can count its instructions per verify with callgrind the way it
 * counts onramp's per session.
 * Usage: ecdsa-verify COUNT (prints the number of good signatures) */
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 1000;
    unsigned char digest[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    unsigned char signature[80];
    size_t signature_length = sizeof signature;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    EVP_PKEY_CTX *signing = EVP_PKEY_CTX_new(key, NULL);
    if (key == NULL || signing == NULL || EVP_PKEY_sign_init(signing) <= 0 ||
        EVP_PKEY_sign(signing, signature, &signature_length, digest, sizeof digest) <= 0)
        return 1;
    EVP_PKEY_CTX *verifying = EVP_PKEY_CTX_new(key, NULL);
    if (verifying == NULL || EVP_PKEY_verify_init(verifying) <= 0) return 1;
    int good = 0;
    for (int i = 0; i < count; i++)
        good += EVP_PKEY_verify(verifying, signature, signature_length, digest, sizeof digest) == 1;
    printf("%d\n", good);
    return good == count ? 0 : 1;
}
