"""Independent checks of webhook deliveries captured by the Swift tests.

Reads a JSON list of captured deliveries from the file named by argv[1], each
{"scheme": "stripe"|"cdp", "secret", "headers": {lower-case name: value}, "body": <raw body as text>},
and prints one JSON line per delivery: {"ok": bool, "id": event id or null, "error": text or null}.
Stripe deliveries are checked with the official stripe package's Webhook.construct_event; CDP
deliveries are recomputed with Python's hmac module per contracts/webhooks.md.
"""
import hashlib
import hmac
import json
import sys
import time

import stripe


def check_stripe(delivery):
    event = stripe.Webhook.construct_event(
        delivery["body"], delivery["headers"]["stripe-signature"], delivery["secret"]
    )
    return event["id"]


def check_cdp(delivery):
    headers = delivery["headers"]
    parts = {}
    for item in headers["x-hook0-signature"].split(","):
        key, _, value = item.partition("=")
        parts[key] = value
    t = parts["t"]
    if abs(time.time() - int(t)) > 300:
        raise ValueError("timestamp outside 5 minutes")
    names = parts["h"].split(" ")
    values = ".".join(headers[name] for name in names)
    body = delivery["body"].encode()
    secret = delivery["secret"].encode()
    v1 = hmac.new(secret, f"{t}.{parts['h']}.{values}.".encode() + body, hashlib.sha256).hexdigest()
    v0 = hmac.new(secret, f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(v1, parts["v1"]):
        raise ValueError("v1 mismatch")
    if not hmac.compare_digest(v0, parts["v0"]):
        raise ValueError("v0 mismatch")
    return headers["x-event-id"]


for delivery in json.load(open(sys.argv[1])):
    try:
        check = check_stripe if delivery["scheme"] == "stripe" else check_cdp
        print(json.dumps({"ok": True, "id": check(delivery), "error": None}))
    except Exception as error:  # report every failure as data for the Swift test
        print(json.dumps({"ok": False, "id": None, "error": f"{type(error).__name__}: {error}"}))
