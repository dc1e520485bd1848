"""Coinbase's onramp-v2-mobile-demo backend, as far as it talks to Coinbase, rewritten from its source
(server/src/app.ts and verifyWebhookSignature.ts at 46ef64380918456ae6baf06b77cda4d8de0f7e45) so CI can
replay its exact request set against an OnrampKit server and check deliveries with its own algorithm.

  demo_backend.py replay BASE_URL          CDP_API_KEY_ID / CDP_API_KEY_SECRET in the environment
      Makes each call of the backend's routes as cdpFetch builds it (JWT requestHost = urlObj.hostname,
      requestPath = urlObj.pathname, expiresIn 120; {...req.body, clientIp}; the /onramp/v1 routes on the
      developer API, the /v2 routes under /platform) and prints one JSON object: route -> {status, body}.
  demo_backend.py verify FILE
      FILE holds [{secret, headers, body}]; prints one JSON line per delivery: {ok, eventType, txId,
      amount, network} as the /webhooks/onramp handler reads them.
"""
import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone


def cdp_fetch(url, method="GET", body=None):
    """cdpFetch: a JWT for the host name (no port) and the path (no query), then the JSON request."""
    # Imported here: the SDK takes about 3 s of CPU to import, and `verify` does not need it.
    from cdp.auth.utils.jwt import JwtOptions, generate_jwt

    parsed = urllib.parse.urlparse(url)
    jwt = generate_jwt(JwtOptions(
        api_key_id=os.environ["CDP_API_KEY_ID"], api_key_secret=os.environ["CDP_API_KEY_SECRET"],
        request_method=method, request_host=parsed.hostname, request_path=parsed.path, expires_in=120))
    data = json.dumps(body).encode() if method == "POST" and body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {jwt}"})
    try:
        with urllib.request.urlopen(request) as response:
            return {"status": response.status, "body": json.loads(response.read() or b"{}")}
    except urllib.error.HTTPError as error:  # forwardCdpResponse: the upstream status and JSON as they are
        return {"status": error.code, "body": json.loads(error.read() or b"{}")}


def replay(base):
    developer = base                      # the demo hard-codes https://api.developer.coinbase.com here
    platform = base + "/platform"         # resolveCdpApiBase(): CDP_API_BASE_URL, .../platform
    user_id = "demo-user-7"
    client_ip = "203.0.113.7"             # resolveClientIp: a public address (ipify) for a loopback client
    now = datetime.now(timezone.utc)
    address = "0x52908400098527886E0F7030069857D2E4169EE7"
    calls = {
        # GET /onramp/config
        "config": cdp_fetch(f"{developer}/onramp/v1/buy/config"),
        # GET /onramp/options: every client query parameter passed through
        "options": cdp_fetch(f"{developer}/onramp/v1/buy/options?" + urllib.parse.urlencode(
            {"country": "US", "subdivision": "CA"})),
        # POST /onramp/session: {...req.body, clientIp}; hooks/useOnramp.ts's widget body
        "session": cdp_fetch(f"{platform}/v2/onramp/sessions", "POST", {
            "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": address,
            "paymentAmount": "25.00", "paymentCurrency": "USD", "country": "US", "subdivision": "CA",
            "redirectUrl": "onrampdemo://onramp-return", "clientIp": client_ip}),
        # POST /offramp/session: req.body unchanged to /onramp/v1/token
        "token": cdp_fetch(f"{developer}/onramp/v1/token", "POST", {
            "addresses": [{"address": address, "blockchains": ["base"]}]}),
        # POST /onramp/order with isQuote, then the order (hooks/useOnramp.ts fields)
        "quote": None, "order": None,
        # POST /onramp/limits: the phone from the user's auth methods
        "limits": None,
        # GET /onramp/transactions
        "transactions": cdp_fetch(
            f"{developer}/onramp/v1/buy/user/{urllib.parse.quote(user_id)}/transactions?pageSize=10"),
        # GET /offramp/transactions: sandbox=true prefixes the ref with sandbox-
        "offrampTransactions": cdp_fetch(
            f"{developer}/onramp/v1/sell/user/{urllib.parse.quote('sandbox-' + user_id)}/transactions"),
    }
    order = {
        "partnerUserRef": user_id, "paymentAmount": "25.00", "paymentCurrency": "USD", "purchaseCurrency": "USDC",
        "paymentMethod": "GUEST_CHECKOUT_APPLE_PAY", "destinationNetwork": "base", "destinationAddress": address,
        "email": "noemail@test.com", "phoneNumber": "+14155550107",
        "phoneNumberVerifiedAt": (now - timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
        "agreementAcceptedAt": now.isoformat().replace("+00:00", "Z"), "clientIp": client_ip}
    calls["quote"] = cdp_fetch(f"{platform}/v2/onramp/orders", "POST", {**order, "isQuote": True})
    calls["order"] = cdp_fetch(f"{platform}/v2/onramp/orders", "POST", {**order, "isQuote": False})
    calls["limits"] = cdp_fetch(f"{platform}/v2/onramp/limits", "POST", {
        "paymentMethodType": "GUEST_CHECKOUT_APPLE_PAY", "userId": order["phoneNumber"], "userIdType": "phone_number"})
    print(json.dumps(calls))


def verify_webhook_signature(raw_body, headers, secret, max_age=300):
    """verifyWebhookSignature.ts: X-Hook0-Signature t=,h=,v1= (v0 only without v1), the signed string
    "t.names.values.body" (missing headers skipped), HMAC-SHA256 hex, at most max_age old and 60 s ahead."""
    header = headers.get("x-hook0-signature")
    if not header:
        return False
    timestamp, names, signature = None, [], None
    for part in header.split(","):
        key, _, value = part.partition("=")
        if key == "t":
            timestamp = value
        elif key == "h":
            names = value.split(" ")
        elif key == "v1":
            signature = value
        elif key == "v0" and not signature:
            signature = value
    if not timestamp or not signature:
        return False
    age = int(time.time()) - int(timestamp)
    if age > max_age or age < -60:
        return False
    values = [headers[name.lower()] for name in names if name.lower() in headers]
    signed = ".".join([timestamp, " ".join(names), ".".join(values), raw_body])
    expected = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).hexdigest()
    try:
        return hmac.compare_digest(bytes.fromhex(signature), bytes.fromhex(expected))
    except ValueError:
        return False


def verify(path):
    with open(path) as f:
        deliveries = json.load(f)
    for delivery in deliveries:
        ok = verify_webhook_signature(delivery["body"], delivery["headers"], delivery["secret"])
        data = json.loads(delivery["body"])
        amount = data.get("purchaseAmount")
        print(json.dumps({
            "ok": ok, "eventType": data.get("eventType") or data.get("event"),
            "txId": data.get("transactionId") or data.get("orderId"),
            "amount": amount.get("value") if isinstance(amount, dict) else amount,
            "network": data.get("destinationNetwork") or data.get("purchaseNetwork"),
            "partnerUserRef": data.get("partnerUserRef")}))


if __name__ == "__main__":
    if sys.argv[1] == "replay":
        replay(sys.argv[2])
    else:
        verify(sys.argv[2])
