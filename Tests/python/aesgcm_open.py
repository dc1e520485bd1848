"""Opens AES-256-GCM data sealed by OnrampCrypto (nonce ‖ ciphertext ‖ tag) with the `cryptography`
package, as an independent implementation. Usage: aesgcm_open.py KEY_HEX SEALED_HEX AAD_HEX; prints the
plaintext in hex."""
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

key, sealed, aad = (bytes.fromhex(argument) for argument in sys.argv[1:4])
print(AESGCM(key).decrypt(sealed[:12], sealed[12:], aad or None).hex())
