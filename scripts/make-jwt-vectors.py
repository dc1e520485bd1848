#!/usr/bin/env python3
"""Generate JWT test vectors with code that is not ours: PyJWT + cryptography, and the official cdp-sdk
generator (cdp.auth.utils.jwt.generate_jwt) when it is installed.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pyjwt cryptography cdp-sdk
    /tmp/venv/bin/python scripts/make-jwt-vectors.py > Tests/OnrampCryptoTests/Fixtures/jwt-vectors.json

Keys are fixed so the fixture is reproducible except for ECDSA randomness and nonces.
"""
import base64
import json
import sys
from importlib import metadata
from unittest import mock

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

try:
    from cdp.auth.utils import jwt as cdp_jwt
except ImportError:  # the official generator is optional
    cdp_jwt = None

NOW = 1_780_000_000  # 2026-05-28T20:26:40Z
KEY_ID_EC = "organizations/9b1c0c3e-0000-4000-8000-000000000001/apiKeys/4f3b2a1c-0000-4000-8000-000000000002"
KEY_ID_ED = "6d1f2e3a-0000-4000-8000-000000000003"
HOST = "api.cdp.coinbase.com"
PATH = "/platform/v2/onramp/mobile/attestation/challenges"

ec_key = ec.derive_private_key(0x1D3A6F2B9C4E5D7A8B0C1E2F3A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D, ec.SECP256R1())
ed_seed = bytes(range(1, 33))
ed_key = ed25519.Ed25519PrivateKey.from_private_bytes(ed_seed)
ed_public = ed_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

ec_secret = ec_key.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
).decode()
ec_public_pem = ec_key.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
).decode()
ed_secret = base64.b64encode(ed_seed + ed_public).decode()


def cdp_token(key_id, secret, method, path, at, expires_in=120):
    """A token from the official generator with its clock pinned to `at`."""
    options = cdp_jwt.JwtOptions(
        api_key_id=key_id, api_key_secret=secret, request_method=method, request_host=HOST,
        request_path=path, expires_in=expires_in)
    with mock.patch.object(cdp_jwt.time, "time", return_value=at):
        return cdp_jwt.generate_jwt(options)


def pyjwt_token(key, alg, key_id, claims):
    header = {"kid": key_id, "typ": "JWT", "nonce": "0123456789abcdef"}
    return jwt.encode(claims, key, algorithm=alg, headers=header)


def claims(key_id, uri, at, aud):
    body = {"sub": key_id, "iss": "cdp", "nbf": at, "exp": at + 120, "uris": [uri]}
    if aud is not None:
        body["aud"] = aud
    return body


tokens = []
uri = f"POST {HOST}{PATH}"
for alg, key, key_id, secret in (("ES256", ec_key, KEY_ID_EC, ec_secret), ("EdDSA", ed_key, KEY_ID_ED, ed_secret)):
    tag = alg.lower()
    tokens += [
        {"name": f"{tag}-pyjwt-valid-aud-array", "alg": alg, "verify_at": NOW + 60, "expected": "valid",
         "token": pyjwt_token(key, alg, key_id, claims(key_id, uri, NOW, ["cdp_service"]))},
        {"name": f"{tag}-pyjwt-valid-aud-string", "alg": alg, "verify_at": NOW + 60, "expected": "valid",
         "token": pyjwt_token(key, alg, key_id, claims(key_id, uri, NOW, "cdp_service"))},
        {"name": f"{tag}-pyjwt-wrong-aud", "alg": alg, "verify_at": NOW + 60, "expected": "audience_mismatch",
         "token": pyjwt_token(key, alg, key_id, claims(key_id, uri, NOW, ["other_service"]))},
        {"name": f"{tag}-pyjwt-expired", "alg": alg, "verify_at": NOW + 3600, "expected": "token_expired",
         "token": pyjwt_token(key, alg, key_id, claims(key_id, uri, NOW, ["cdp_service"]))},
        {"name": f"{tag}-pyjwt-not-yet-valid", "alg": alg, "verify_at": NOW - 3600, "expected": "token_not_yet_valid",
         "token": pyjwt_token(key, alg, key_id, claims(key_id, uri, NOW, ["cdp_service"]))},
        {"name": f"{tag}-pyjwt-wrong-uris", "alg": alg, "verify_at": NOW + 60, "expected": "claim_rejected",
         "token": pyjwt_token(key, alg, key_id, claims(key_id, f"GET {HOST}/platform/v2/other", NOW, ["cdp_service"]))},
    ]
    if cdp_jwt is not None:
        tokens += [
            {"name": f"{tag}-cdp-sdk-valid", "alg": alg, "verify_at": NOW + 60, "expected": "valid",
             "token": cdp_token(key_id, secret, "POST", PATH, NOW)},
            {"name": f"{tag}-cdp-sdk-expired", "alg": alg, "verify_at": NOW + 121 + 60, "expected": "token_expired",
             "token": cdp_token(key_id, secret, "POST", PATH, NOW)},
            {"name": f"{tag}-cdp-sdk-wrong-uris", "alg": alg, "verify_at": NOW + 60, "expected": "claim_rejected",
             "token": cdp_token(key_id, secret, "GET", "/platform/v2/onramp/mobile/sessions", NOW)},
        ]

versions = {name: metadata.version(name) for name in ("pyjwt", "cryptography")}
if cdp_jwt is not None:
    versions["cdp-sdk"] = metadata.version("cdp-sdk")
json.dump({
    "generated_by": "scripts/make-jwt-vectors.py",
    "versions": versions,
    "leeway_seconds": 30,
    "request": {"method": "POST", "host": HOST, "path": PATH, "uri": uri},
    "keys": {
        "ES256": {"key_id": KEY_ID_EC, "secret": ec_secret, "public_key_pem": ec_public_pem},
        "EdDSA": {"key_id": KEY_ID_ED, "secret": ed_secret, "public_key_b64": base64.b64encode(ed_public).decode()},
    },
    "tokens": tokens,
}, sys.stdout, indent=2)
sys.stdout.write("\n")
