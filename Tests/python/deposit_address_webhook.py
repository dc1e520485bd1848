"""A deposit address settled in the sandbox, driven by the official stripe package's raw_request.

Environment: ONRAMP_BASE (the server), ONRAMP_SK (a test secret key), ONRAMP_HOOK (a receiver's URL).
Registers a webhook endpoint for payment_intent.succeeded, makes a Base deposit address, receives
12.345678 USDC there through the test helper, and reads the captured PaymentIntent back. Prints
{"secret": the endpoint's signing secret, "intent": the PaymentIntent's id}; the Swift test then checks
the delivery with stripe.Webhook.construct_event (verify_webhooks.py).
"""
import json
import os
import sys

import stripe


def obj(response):
    return json.loads(response.body)


def check(name, condition, detail=""):
    if not condition:
        print(f"FAILED {name}: {detail}", file=sys.stderr)
        sys.exit(1)


base = os.environ["ONRAMP_BASE"]
client = stripe.StripeClient(os.environ["ONRAMP_SK"], base_addresses={"api": base})
preview = {"stripe_version": "2026-07-08.preview"}

endpoint = obj(client.raw_request(
    "post", "/v1/webhook_endpoints", url=os.environ["ONRAMP_HOOK"], enabled_events=["payment_intent.succeeded"]))
check("endpoint secret", endpoint["secret"].startswith("whsec_"), endpoint)
address = obj(client.raw_request(
    "post", "/v1/crypto/deposit_addresses", network="base", customer="cus_depositor", **preview))
intent = obj(client.raw_request(
    "post", f"/v1/test_helpers/crypto/deposit_addresses/{address['id']}/deposit", amount="12.345678",
    token_currency="usdc", transaction_hash="0x" + "ab" * 32, **preview))
check("intent succeeded", intent["object"] == "payment_intent" and intent["status"] == "succeeded", intent)
check("whole cents", intent["amount"] == 1234 and intent["amount_received"] == 1234, intent)
check("deposit mode", intent["payment_method_options"]["crypto"]["mode"] == "deposit", intent)
check("customer kept", intent["customer"] == "cus_depositor", intent)
check("description names the transfer", address["address"] in intent["description"], intent)
fetched = obj(client.raw_request("get", f"/v1/payment_intents/{intent['id']}"))
check("intent retrieved", fetched == intent, fetched)
try:
    client.raw_request(
        "post", f"/v1/test_helpers/crypto/deposit_addresses/{address['id']}/deposit", amount="1.00",
        transaction_hash="0x" + "ab" * 32, **preview)
    check("a transfer is received once", False)
except stripe.InvalidRequestError as error:
    check("repeated transaction_hash is 400", error.http_status == 400 and error.param == "transaction_hash", error)
try:
    client.raw_request(
        "post", f"/v1/test_helpers/crypto/deposit_addresses/{address['id']}/deposit", amount="0.001", **preview)
    check("less than a cent raises", False)
except stripe.InvalidRequestError as error:
    check("less than a cent is 400", error.http_status == 400 and error.param == "amount", error)

print(json.dumps({"secret": endpoint["secret"], "intent": intent["id"]}))
