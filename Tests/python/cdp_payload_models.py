"""Parses webhook payloads with cdp-sdk's own models, as a partner's backend using the SDK would.

Reads a JSON list from the file named by argv[1], each {"model": a class name in cdp.openapi_client.models
(OnrampTransactionPayload, OnrampOrderPayload, OfframpTransactionPayload), "payload": the payload object},
and prints one JSON list: per payload {"ok": bool, "error": text or null, "parsed": the model's to_dict()}.
"""
import importlib
import json
import re
import sys


def module_name(model):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()


def parse(entry):
    try:
        module = importlib.import_module("cdp.openapi_client.models." + module_name(entry["model"]))
        parsed = getattr(module, entry["model"]).from_dict(entry["payload"])
        return {"ok": True, "error": None, "parsed": parsed.to_dict()}
    except Exception as error:  # the model's own validation error, reported to the Swift test
        return {"ok": False, "error": f"{type(error).__name__}: {error}", "parsed": None}


with open(sys.argv[1]) as file:
    entries = json.load(file)
print(json.dumps([parse(entry) for entry in entries], default=str))
