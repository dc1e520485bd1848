"""Validates an OpenAPI 3.1 document with openapi-spec-validator (PyPI), which knows nothing of us.

Usage: validate_openapi.py FILE. Exits non-zero with the validator's message when the document is
invalid; prints the number of operations otherwise.
"""
import json
import sys

from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

with open(sys.argv[1]) as f:
    document = json.load(f)
try:
    validate(document)
except OpenAPIValidationError as error:
    print(f"invalid OpenAPI document: {error}", file=sys.stderr)
    sys.exit(1)
operations = sum(len(item) for item in document["paths"].values())
print(f"valid OpenAPI {document['openapi']}: {operations} operations")
