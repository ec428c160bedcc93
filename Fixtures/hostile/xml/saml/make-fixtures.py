"""Makes the forged Responses of this folder from the genuine one (README.md beside this file).

    .build/debug/passim saml-samples --out /tmp/samples   # seed 0x5EED, issued 2026-01-01T00:00:00Z
    python3 Fixtures/hostile/xml/saml/make-fixtures.py /tmp/samples/response.xml
"""

import base64
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))


def write(name, text):
    with open(os.path.join(here, name), "w", encoding="utf-8") as f:
        f.write(text)


def main(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    write("signed-response.xml", src)
    assertion = re.search(r"(<saml:Assertion .*?</saml:Assertion>)", src).group(1)
    aid = re.search(r'<saml:Assertion ID="([^"]+)"', src).group(1)
    rid = re.search(r'<samlp:Response [^>]*? ID="([^"]+)"', src).group(1)
    sig = re.search(r"(<ds:Signature .*?</ds:Signature>)", assertion).group(1)
    alice = "<saml:AttributeValue>alice</saml:AttributeValue>"
    evil = assertion.replace(sig, "").replace(aid, "_evil").replace(alice, "<saml:AttributeValue>mallory</saml:AttributeValue>")
    # The forged assertion carries the genuine signature; the genuine assertion hides in its Advice.
    wrapped = evil.replace("</saml:Issuer>", "</saml:Issuer>" + sig, 1)
    wrapped = wrapped.replace("</saml:Conditions>", "</saml:Conditions><saml:Advice>" + assertion + "</saml:Advice>", 1)
    write("signature-wrapping.xml", src.replace(assertion, wrapped))
    write("two-assertions.xml", src.replace(assertion, assertion + evil))
    digest = re.search(r"<ds:DigestValue>([^<]+)</ds:DigestValue>", src).group(1)
    write("wrong-digest.xml", src.replace(digest, base64.b64encode(bytes(32)).decode()))
    write("reference-to-another-id.xml", src.replace('URI="#' + aid + '"', 'URI="#' + rid + '"'))
    write("duplicate-id.xml", src.replace('ID="' + rid + '"', 'ID="' + aid + '"', 1))
    declaration = '<?xml version="1.0" encoding="UTF-8"?>'
    doctype = declaration + '<!DOCTYPE samlp:Response [<!ENTITY who "mallory">]>'
    write("doctype.xml", src.replace(declaration, doctype, 1).replace(alice, "<saml:AttributeValue>&who;</saml:AttributeValue>"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make-fixtures.py RESPONSE_XML")
    main(sys.argv[1])
