"""Schemathesis hooks for fuzzing OnrampKit: every request carries the credentials its operation's
`security` names. A CDP API key JWT names one method, host and path, and a write's JWT is good once,
so each JWT this module issued is replaced by a fresh one right before every send (schemathesis
replays cases); a header the fuzzer removed or forged is left as it is, so the checks that credentials
are really required still see what they sent.

Environment: CDP_API_KEY_ID, CDP_API_KEY_SECRET (the project's CDP API key), STRIPE_SECRET_KEY,
STRIPE_OAUTH_TOKEN (a Link user's access token), STRIPE_EPHEMERAL_KEY (an identity verification's key) and
ONRAMP_CONSOLE_TOKEN (the console's operator token). The test-clock routes get a second project's keys
(CLOCK_CDP_API_KEY_ID, CLOCK_CDP_API_KEY_SECRET, CLOCK_STRIPE_SECRET_KEY): a generated 30-day advance of
the first project's clock would expire its OAuth token and leave every later Link-user call at 401.
"""
import os
import secrets

import schemathesis
from cdp.auth.utils import jwt as cdp_jwt
from cdp.auth.utils.jwt import JwtOptions, generate_jwt

# cdp-sdk draws its JWT nonce from `random`, which Hypothesis seeds for every test case: the same
# nonces would come back and the server rightly refuses a nonce it has seen.
cdp_jwt._generate_nonce = lambda: "".join(secrets.choice("0123456789") for _ in range(16))

SIGNABLE = ("GET", "POST", "PUT", "DELETE", "PATCH")
CLOCK_PATHS = ("/platform/v2/onramp/test_clocks/advance", "/v1/test_helpers/test_clocks/advance")
issued = set()


def key(case, name):
    """The credential `name` from the environment, the clock project's for a test-clock route."""
    clock = case.operation.path in CLOCK_PATHS and os.environ.get("CLOCK_" + name)
    return clock or os.environ[name]


def fresh_jwt(case):
    host = case.operation.base_url.split("://", 1)[1].split("/", 1)[0]
    token = "Bearer " + generate_jwt(JwtOptions(
        api_key_id=key(case, "CDP_API_KEY_ID"), api_key_secret=key(case, "CDP_API_KEY_SECRET"),
        request_method=case.method.upper(), request_host=host, request_path=case.formatted_path))
    issued.add(token)
    return token


@schemathesis.auth(refresh_interval=None)
class OnrampCredentials:
    def get(self, case, ctx):
        return True

    def set(self, case, data, ctx):
        names = {name for requirement in case.operation.definition.raw.get("security", [])
                 for name in requirement}
        headers = case.headers if case.headers is not None else {}
        # cdp-sdk signs only the methods it knows; the unsupported-method probes go without a JWT.
        if "cdpApiKey" in names and case.method.upper() in SIGNABLE:
            headers["Authorization"] = fresh_jwt(case)
        if "stripeKey" in names:
            headers["Authorization"] = "Bearer " + key(case, "STRIPE_SECRET_KEY")
        if "consoleToken" in names and os.environ.get("ONRAMP_CONSOLE_TOKEN"):
            headers["Authorization"] = "Bearer " + os.environ["ONRAMP_CONSOLE_TOKEN"]
        if "stripeEphemeralKey" in names and os.environ.get("STRIPE_EPHEMERAL_KEY"):
            headers["Authorization"] = "Bearer " + os.environ["STRIPE_EPHEMERAL_KEY"]
        if "stripeOAuthToken" in names and os.environ.get("STRIPE_OAUTH_TOKEN"):
            headers["Stripe-OAuth-Token"] = os.environ["STRIPE_OAUTH_TOKEN"]
        case.headers = headers


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.headers and case.headers.get("Authorization") in issued:
        case.headers["Authorization"] = fresh_jwt(case)
