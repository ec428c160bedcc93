"""Where Adobe's REST v2 contract and its prose disagree, the mock follows the prose (docs/WIRE.md,
"REST API v2"); these are exactly the named parts of the contract relaxed before any validation, by
check_contract.py (openapi-core) and scripts/restv2-schemathesis.sh. Nothing else is changed.

    contract_quirks.py SPEC.json OUT.json    # writes the relaxed copy (outside the repository)
"""

import copy
import json
import sys


def error_message_is_a_string(spec):
    spec["components"]["schemas"]["ErrorInformation"]["properties"]["message"] = {"type": "string"}


def attribute_value_is_the_value(spec):
    spec["components"]["schemas"]["UserMetadataResponse"]["properties"]["value"] = {}


def partner_profile_answers_201(spec):
    responses = spec["paths"]["/{serviceProvider}/profiles/sso/{partner}"]["post"]["responses"]
    responses["201"] = copy.deepcopy(responses["200"])


def device_says_unknown_with_null(spec):
    """The session samples' `device`: what nobody said is null, and the address is text."""
    schemas = spec["components"]["schemas"]
    for name in ("Device", "Hardware", "OperatingSystem", "Browser", "Display", "Connection"):
        for prop in schemas[name]["properties"].values():
            if "$ref" not in prop:
                prop["nullable"] = True
    schemas["Display"]["properties"]["version"] = dict(copy.deepcopy(schemas["Version"]), nullable=True)
    schemas["Connection"]["properties"]["ipAddress"] = {"type": "string", "nullable": True}


QUIRKS = {
    "restApiV2.json": [("ErrorInformation.message is a string", error_message_is_a_string),
                       ("a profile attribute's value is the value itself", attribute_value_is_the_value),
                       ("profiles/sso/{partner} answers 201", partner_profile_answers_201),
                       ("a session's device says unknown with null, its address as text",
                        device_says_unknown_with_null)],
    # The mock answers DCR as dcrApi.json declares it (201 for the token too, as its pages say): nothing relaxed.
    "dcrApi.json": [],
}


def relaxed(path):
    with open(path) as f:
        spec = json.load(f)
    for _, patch in QUIRKS[path.rsplit("/", 1)[-1]]:
        patch(spec)
    return spec


if __name__ == "__main__":
    with open(sys.argv[2], "w") as out:
        json.dump(relaxed(sys.argv[1]), out)
