"""Drives the Embedded server-side API with the official `stripe` package (stripe==16.1.0).

Run by EmbeddedStripePythonTests with the server's address, the project's secret key and a user who
already has KYC, a wallet and a payment token. Every call goes through StripeClient.raw_request, and
every error is parsed by the library into its own error classes. Exits non-zero on the first failure.
"""
import json
import os
import sys

import stripe

base = os.environ["ONRAMP_BASE"]
client = stripe.StripeClient(os.environ["ONRAMP_SK"], base_addresses={"api": base}, max_network_retries=0)
oauth = {"Stripe-OAuth-Token": os.environ["ONRAMP_ACCESS_TOKEN"]}
customer_id = os.environ["ONRAMP_CUSTOMER"]
payment_token = os.environ["ONRAMP_PAYMENT_TOKEN"]
wallet = os.environ["ONRAMP_WALLET"]
checks = []


def check(name, condition, detail=""):
    checks.append(name)
    if not condition:
        print(f"FAIL {name}: {detail}", file=sys.stderr)
        sys.exit(1)


def obj(response):
    return client.deserialize(response, api_mode="V1")


customer = obj(client.raw_request("get", f"/v1/crypto/customers/{customer_id}", headers=oauth))
check("customer object", customer["object"] == "crypto.customer", customer)
tiers = {t["tier"]: t["verification_status"] for t in customer["kyc_tiers"]}
check("customer l1 verified", tiers.get("l1") == "verified", tiers)

wallets = obj(client.raw_request("get", f"/v1/crypto/customers/{customer_id}/crypto_consumer_wallets", headers=oauth))
check("wallet listed", any(w["wallet_address"] == wallet for w in wallets["data"]), wallets)
tokens = obj(client.raw_request("get", f"/v1/crypto/customers/{customer_id}/payment_tokens", headers=oauth))
check("payment token listed", any(t["id"] == payment_token for t in tokens["data"]), tokens)

params = dict(
    ui_mode="headless", crypto_customer_id=customer_id, payment_token=payment_token, source_amount="25.00",
    source_currency="usd", destination_currency="usdc", destination_network="base",
    destination_networks=["base"], wallet_address=wallet, customer_ip_address="203.0.113.7",
)
session = obj(client.raw_request("post", "/v1/crypto/onramp_sessions", headers=oauth, idempotency_key="py-create", **params))
check("session created", session["status"] == "requires_payment" and session["id"].startswith("cos_"), session)
replay = obj(client.raw_request("post", "/v1/crypto/onramp_sessions", headers=oauth, idempotency_key="py-create", **params))
check("idempotent replay", replay["id"] == session["id"], replay)
try:
    client.raw_request(
        "post", "/v1/crypto/onramp_sessions", headers=oauth, idempotency_key="py-create", **dict(params, source_amount="30.00"))
    check("idempotency conflict raises", False)
except stripe.IdempotencyError as error:
    check("idempotency error class", error.http_status == 400, error)

fetched = obj(client.raw_request("get", f"/v1/crypto/onramp_sessions/{session['id']}"))
check("session retrieved", fetched["transaction_details"]["source_amount"] == "25.00", fetched)
quoted = obj(client.raw_request("post", f"/v1/crypto/onramp_sessions/{session['id']}/quote", headers=oauth))
check("session quoted", quoted["status"] == "requires_payment", quoted)
paid = obj(client.raw_request("post", f"/v1/crypto/onramp_sessions/{session['id']}/checkout", headers=oauth))
check("checkout", paid["status"] == "fulfillment_processing", paid)
listed = obj(client.raw_request("get", "/v1/crypto/onramp_sessions", limit=5, status="fulfillment_processing"))
check("list filtered", [s["id"] for s in listed["data"]] == [session["id"]], listed)

quotes = obj(client.raw_request(
    "get", "/v1/crypto/onramp/quotes", source_amount="20", source_currency="usd",
    destination_currencies=["usdc"], destination_networks=["base", "solana"]))
check("quotes per network", sorted(quotes["destination_network_quotes"].to_dict().keys()) == ["base", "solana"], quotes)
limits = obj(client.raw_request("get", "/v1/crypto/onramp_transaction_limits"))
check("limits", limits["object"] == "crypto.onramp_transaction_limits", limits)

try:
    client.raw_request("post", "/v1/crypto/onramp_sessions", headers=oauth, **dict(params, destination_network="polygon"))
    check("invalid pair raises", False)
except stripe.InvalidRequestError as error:
    check("invalid pair code", error.code == "crypto_onramp_invalid_source_destination_pair", error)
    check("invalid pair param", error.param == "destination_currency", error.param)

try:
    client.raw_request("get", "/v1/crypto/onramp_sessions/cos_missing")
    check("missing raises", False)
except stripe.InvalidRequestError as error:
    check("missing is 404", error.http_status == 404 and error.code == "resource_missing", error)

try:
    client.raw_request("get", f"/v1/crypto/customers/{customer_id}")
    check("no oauth raises", False)
except stripe.AuthenticationError as error:
    check("no oauth code", error.http_status == 401 and error.error.code == "oauth_token_missing", error)

try:
    stripe.StripeClient("sk_test_not_a_key", base_addresses={"api": base}).raw_request("get", "/v1/crypto/onramp_sessions")
    check("bad key raises", False)
except stripe.AuthenticationError as error:
    check("bad key is 401", error.http_status == 401, error)

publishable = stripe.StripeClient(os.environ["ONRAMP_PK"], base_addresses={"api": base})
try:
    publishable.raw_request(
        "post", "/v1/payment_methods", type="card",
        card={"number": "4242424242424241", "exp_month": "12", "exp_year": "2034"})
    check("bad card raises", False)
except stripe.CardError as error:
    check("card error code", error.code == "incorrect_number", error)

# Deposit addresses, as the private-preview bindings call them (stripe-python `_deposit_address_service.py`).
preview = {"stripe_version": "2026-07-08.preview"}
made = obj(client.raw_request(
    "post", "/v1/crypto/deposit_addresses", network="base", customer="cus_sandbox", metadata={"order": "42"}, **preview))
check("deposit address object", made["object"] == "crypto.deposit_address" and made["network"] == "base", made)
check("deposit address is EIP-55", made["address"].startswith("0x") and len(made["address"]) == 42, made)
check("usdc supported", made["supported_tokens"][0]["token_currency"] == "usdc", made)
solana = obj(client.raw_request("post", "/v1/crypto/deposit_addresses", network="solana", **preview))
fetched_address = obj(client.raw_request("get", f"/v1/crypto/deposit_addresses/{made['id']}", **preview))
check("deposit address retrieved", fetched_address["metadata"]["order"] == "42", fetched_address)
on_base = obj(client.raw_request("get", "/v1/crypto/deposit_addresses", network="base", **preview))
check("deposit addresses filtered", [a["id"] for a in on_base["data"]] == [made["id"]], on_base)
page = obj(client.raw_request("get", "/v1/crypto/deposit_addresses", limit=1, **preview))
check("newest first, has_more", page["data"][0]["id"] == solana["id"] and page["has_more"], page)
older = obj(client.raw_request("get", "/v1/crypto/deposit_addresses", limit=1, starting_after=solana["id"], **preview))
check("next page", [a["id"] for a in older["data"]] == [made["id"]] and not older["has_more"], older)
newer = obj(client.raw_request("get", "/v1/crypto/deposit_addresses", ending_before=made["id"], **preview))
check("previous page", [a["id"] for a in newer["data"]] == [solana["id"]], newer)
try:
    client.raw_request("post", "/v1/crypto/deposit_addresses", network="dogecoin", **preview)
    check("bad network raises", False)
except stripe.InvalidRequestError as error:
    check("bad network is 400", error.http_status == 400 and error.param == "network", error)
try:
    publishable_for_address = stripe.StripeClient(os.environ["ONRAMP_PK"], base_addresses={"api": base})
    publishable_for_address.raw_request("get", f"/v1/crypto/deposit_addresses/{made['id']}")
    check("publishable key refused", False)
except stripe.PermissionError as error:
    check("secret key required", error.http_status == 403, error)

print(json.dumps({"passed": checks}))
