"""Drives the App2App calls of the official cdp-sdk (PyPI) against an OnrampKit server.

Usage: cdp_app2app.py BASE_URL ONRAMP_BINARY CA_DIR WORK_DIR APP_ID
Also creates a hosted onramp session (OnrampApi). Reads CDP_API_KEY_ID / CDP_API_KEY_SECRET from
the environment. The device side (App Attest objects) comes from `onramp appattest attest|assert`,
the software attester. Prints one JSON object with what the SDK returned; exits non-zero on any
failure.
"""
import asyncio
import base64
import hashlib
import json
import os
import subprocess
import sys
import urllib.request

from cdp.auth.utils.jwt import JwtOptions, generate_jwt
from cdp.openapi_client.api.onramp_api import OnrampApi
from cdp.openapi_client.api.onramp_app2_app_api import OnrampApp2AppApi
from cdp.openapi_client.cdp_api_client import CdpApiClient
from cdp.openapi_client.errors import ApiError
from cdp.openapi_client.models.create_onramp_mobile_challenge_request import CreateOnrampMobileChallengeRequest
from cdp.openapi_client.models.create_onramp_mobile_session_request import CreateOnrampMobileSessionRequest
from cdp.openapi_client.models.ios_attestation_payload import IosAttestationPayload
from cdp.openapi_client.models.ios_attestation_registration_request import IosAttestationRegistrationRequest
from cdp.openapi_client.models.onramp_session_request import OnrampSessionRequest

BASE, ONRAMP, CA, WORK, APP_ID = sys.argv[1:6]
KEY_ID = os.environ["CDP_API_KEY_ID"]
KEY_SECRET = os.environ["CDP_API_KEY_SECRET"]
KEY_FILE = os.path.join(WORK, "device-key.json")


def attester(command, client_data_hash):
    out = os.path.join(WORK, f"{command}.json")
    subprocess.run(
        [ONRAMP, "appattest", command, "--ca", CA, "--key", KEY_FILE, "--app-id", APP_ID,
         "--client-data-hash", client_data_hash.hex(), "--out", out]
        + (["--environment", "production"] if command == "attest" else []),
        check=True, capture_output=True)
    with open(out) as f:
        return json.load(f)


async def main():
    result = {}
    subprocess.run([ONRAMP, "appattest", "key", "create", "--out", KEY_FILE], check=True, capture_output=True)
    client = CdpApiClient(api_key_id=KEY_ID, api_key_secret=KEY_SECRET, base_path=BASE + "/platform")
    api = OnrampApp2AppApi(client)
    try:
        # Registration challenge: CDP API key JWT, standard base64 (44 characters).
        challenge = await api.create_onramp_ios_attestation_challenge()
        result["registrationChallengeLength"] = len(challenge.challenge)
        # The cdp-sdk documents clientDataHash = SHA256(challenge string as given).
        vector = attester("attest", hashlib.sha256(challenge.challenge.encode()).digest())
        registration = await api.register_onramp_ios_attestation(IosAttestationRegistrationRequest(
            challenge=challenge.challenge,
            ios=IosAttestationPayload(key_id=vector["key_id"], attestation=vector["attestation_b64"],
                                      bundle_id=APP_ID.split(".", 1)[1])))
        result["registration"] = {"appId": registration.app_id, "keyId": registration.key_id}

        purchase = await api.create_onramp_mobile_challenge(CreateOnrampMobileChallengeRequest(
            purchase_currency="USDC", destination_network="solana",
            destination_address="7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
            payment_amount="50.00", payment_currency="USD", payment_method="CARD", country="US", subdivision="CA",
            redirect_url="https://wallet.example.com/onramp-return", partner_user_ref="cdp-sdk-user"))
        # The seed's rule: SHA256(base64 decode(challenge)).
        assertion = attester("assert", hashlib.sha256(base64.b64decode(purchase.challenge)).digest())
        session = await api.create_onramp_mobile_session(CreateOnrampMobileSessionRequest(
            challenge=purchase.challenge, ios={"keyId": vector["key_id"], "assertion": assertion["assertion_b64"]}))
        result["onrampUrl"] = session.session.onramp_url

        # An error parsed by the SDK into its own ApiError.
        try:
            await api.create_onramp_mobile_challenge(CreateOnrampMobileChallengeRequest(
                purchase_currency="USDC", destination_network="solana", destination_address="0xnot-solana",
                payment_amount="50.00", redirect_url="https://wallet.example.com/back"))
            result["error"] = None
        except ApiError as error:
            result["error"] = {"httpCode": error.http_code, "errorType": error.error_type}

        # The hosted onramp (no App Attest): a one-click session URL with its quote.
        hosted = await OnrampApi(client).create_onramp_session(onramp_session_request=OnrampSessionRequest(
            purchase_currency="USDC", destination_network="base",
            destination_address="0x52908400098527886E0F7030069857D2E4169EE7", payment_amount="25.00",
            payment_currency="USD", payment_method="CARD", country="US", subdivision="CA",
            redirect_url="https://wallet.example.com/onramp-return", partner_user_ref="cdp-sdk-hosted"))
        result["hostedOnrampUrl"] = hosted.session.onramp_url
        result["hostedQuote"] = {"paymentTotal": hosted.quote.payment_total,
                                 "purchaseAmount": hosted.quote.purchase_amount,
                                 "fees": [fee.type for fee in hosted.quote.fees]}
    finally:
        await client.close()

    # A JWT-authenticated request made with the SDK's own JWT generator.
    host = BASE.split("://", 1)[1]
    path = "/onramp/v1/buy/user/cdp-sdk-user/transactions"
    token = generate_jwt(JwtOptions(api_key_id=KEY_ID, api_key_secret=KEY_SECRET, request_method="GET",
                                    request_host=host, request_path=path))
    request = urllib.request.Request(BASE + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        result["transactionsStatus"] = response.status
        result["transactions"] = json.load(response)
    print(json.dumps(result))


os.environ.setdefault("DISABLE_CDP_ERROR_REPORTING", "true")
os.environ.setdefault("DISABLE_CDP_USAGE_TRACKING", "true")
asyncio.run(main())
