"""pysaml2 reads the SAML messages of one mock login and logout (issue 14): each validates strictly
against the SAML 2.0 schemas pysaml2 bundles, the SP side (pysaml2's Saml2Client) accepts the IdP's
signed Response (signature checked by xmlsec1 against the certificate in the IdP's metadata, never
the one in the message) with its attributes, and its LogoutResponse; the IdP side (pysaml2's
Server) accepts the SP's AuthnRequest and LogoutRequest.

    python check_pysaml2.py SAMPLES_DIR

SAMPLES_DIR is what `passim saml-samples --out DIR --at $(date +%s)` wrote. Run by
scripts/saml-clients.sh in its venv (pysaml2 pinned in requirements.txt); exit status 1 on any failure.
"""

import base64
import json
import os
import sys
import tempfile
import unittest

from saml2 import BINDING_HTTP_POST
from saml2.client import Saml2Client
from saml2.config import Config, SPConfig
from saml2.server import Server
from saml2.sigver import get_xmlsec_binary
from saml2.xml.schema import validate as validate_schema

SAMPLES = None
MESSAGES = ("authn-request", "response", "logout-request", "logout-response")


def read(name):
    with open(os.path.join(SAMPLES, name), encoding="utf-8") as f:
        return f.read()


def b64(xml):
    return base64.b64encode(xml.encode("utf-8")).decode("ascii")


def cert_body(pem):
    return "".join(line for line in pem.splitlines() if line and not line.startswith("-----"))


def idp_metadata(e, cert):
    return f"""<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"
    xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="{e['idp_entity_id']}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data>
      <ds:X509Certificate>{cert}</ds:X509Certificate>
    </ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="{BINDING_HTTP_POST}" Location="{e['idp_slo_url']}"/>
    <md:SingleSignOnService Binding="{BINDING_HTTP_POST}" Location="{e['idp_sso_url']}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>"""


def sp_metadata(e):
    return f"""<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="{e['sp_entity_id']}">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:SingleLogoutService Binding="{BINDING_HTTP_POST}" Location="{e['sp_slo_url']}"/>
    <md:AssertionConsumerService Binding="{BINDING_HTTP_POST}" Location="{e['acs_url']}" index="0"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>"""


class PySAML2Accepts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.e = json.loads(read("endpoints.json"))
        cls.tmp = tempfile.TemporaryDirectory()
        cert = cert_body(read("idp-cert.pem"))
        cls.idp_md = os.path.join(cls.tmp.name, "idp.xml")
        cls.sp_md = os.path.join(cls.tmp.name, "sp.xml")
        with open(cls.idp_md, "w") as f:
            f.write(idp_metadata(cls.e, cert))
        with open(cls.sp_md, "w") as f:
            f.write(sp_metadata(cls.e))
        xmlsec = get_xmlsec_binary()
        cls.sp = Saml2Client(config=SPConfig().load({
            "entityid": cls.e["sp_entity_id"],
            "xmlsec_binary": xmlsec,
            "metadata": {"local": [cls.idp_md]},
            "allow_unknown_attributes": True,
            "service": {"sp": {
                "endpoints": {
                    "assertion_consumer_service": [(cls.e["acs_url"], BINDING_HTTP_POST)],
                    "single_logout_service": [(cls.e["sp_slo_url"], BINDING_HTTP_POST)],
                },
                "want_assertions_signed": True,
                "want_response_signed": False,
                "authn_requests_signed": False,
                "only_use_keys_in_metadata": True,
            }},
        }))
        idp_config = Config().load({
            "entityid": cls.e["idp_entity_id"],
            "xmlsec_binary": xmlsec,
            "metadata": {"local": [cls.sp_md]},
            "service": {"idp": {
                "endpoints": {
                    "single_sign_on_service": [(cls.e["idp_sso_url"], BINDING_HTTP_POST)],
                    "single_logout_service": [(cls.e["idp_slo_url"], BINDING_HTTP_POST)],
                },
                "want_authn_requests_signed": False,
            }},
        })
        idp_config.context = "idp"
        cls.idp = Server(config=idp_config)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_message_validates_against_the_schemas(self):
        for name in MESSAGES:
            with self.subTest(message=name):
                validate_schema(read(name + ".xml"))

    def test_every_attribute_has_a_name_format(self):
        for name in MESSAGES:
            xml = read(name + ".xml")
            self.assertEqual(xml.count("<saml:Attribute "), xml.count('NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"'))

    def test_the_sp_accepts_the_signed_response_and_its_attributes(self):
        request = self.idp.parse_authn_request(b64(read("authn-request.xml")), BINDING_HTTP_POST)
        response = self.sp.parse_authn_request_response(
            b64(read("response.xml")), BINDING_HTTP_POST, outstanding={request.message.id: "/"})
        self.assertIsNotNone(response)
        self.assertTrue(response.assertion.signature is not None, "the assertion carries a signature")
        self.assertEqual(response.issuer(), self.e["idp_entity_id"])
        ava = response.get_identity()
        self.assertEqual(ava["userID"], ["alice"])
        self.assertEqual(ava["zip"], ["12345", "67890"])
        self.assertEqual(ava["householdID"], ["h-1"])
        self.assertEqual(ava["maxRating"], ["17"])

    def test_the_sp_refuses_the_response_once_tampered(self):
        xml = read("response.xml").replace(">alice<", ">mallory<")
        request = self.idp.parse_authn_request(b64(read("authn-request.xml")), BINDING_HTTP_POST)
        with self.assertRaises(Exception):
            self.sp.parse_authn_request_response(b64(xml), BINDING_HTTP_POST, outstanding={request.message.id: "/"})

    def test_the_idp_accepts_the_authn_request(self):
        request = self.idp.parse_authn_request(b64(read("authn-request.xml")), BINDING_HTTP_POST)
        self.assertEqual(request.message.issuer.text, self.e["sp_entity_id"])
        self.assertEqual(request.message.assertion_consumer_service_url, self.e["acs_url"])

    def test_the_idp_accepts_the_logout_request(self):
        request = self.idp.parse_logout_request(b64(read("logout-request.xml")), BINDING_HTTP_POST)
        self.assertEqual(request.message.issuer.text, self.e["sp_entity_id"])
        self.assertTrue(request.message.name_id.text)
        self.assertTrue(request.message.session_index)

    def test_the_sp_accepts_the_logout_response(self):
        response = self.sp.parse_logout_request_response(b64(read("logout-response.xml")), BINDING_HTTP_POST)
        self.assertIsNotNone(response)
        self.assertEqual(response.issuer(), self.e["idp_entity_id"])
        self.assertTrue(response.status_ok())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_pysaml2.py SAMPLES_DIR")
    SAMPLES = sys.argv[1]
    result = unittest.main(argv=sys.argv[:1], exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
