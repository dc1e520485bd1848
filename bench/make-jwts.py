"""Writes COUNT CDP API key JWTs for `GET HOST PATH`, one per line, made with the official
cdp-sdk generator (each has its own nonce, so each is accepted once).
Usage: make-jwts.py KEY_ID KEY_SECRET HOST PATH COUNT OUT"""
import sys

from cdp.auth.utils.jwt import JwtOptions, generate_jwt

key_id, secret, host, path, count, out = sys.argv[1:7]
with open(out, "w") as f:
    for _ in range(int(count)):
        f.write(generate_jwt(JwtOptions(api_key_id=key_id, api_key_secret=secret, request_method="GET",
                                        request_host=host, request_path=path, expires_in=300)) + "\n")
