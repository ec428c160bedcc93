"""Unit tests of the client harnesses' own logic (URL map, replay expectations); no server needed.

    python3 -m unittest discover -s Fixtures/clients -p 'test_*.py'
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'replays'))

import hostmap  # noqa: E402
import replay  # noqa: E402

SP = ('https://sp.auth.adobe.com/adobe-services', 'http://127.0.0.1:5001/adobe-services', True)
IDP = ('https://cable.idp.test', 'http://127.0.0.1:5002', False)


class HostMapTests(unittest.TestCase):
    def setUp(self):
        self.m = hostmap.HostMap([SP, IDP], replay.ALIASES)

    def test_under_the_sp_base_path(self):
        self.assertEqual(self.m('https://sp.auth.adobe.com/adobe-services/session?x=1'),
                         'http://127.0.0.1:5001/adobe-services/session?x=1')

    def test_host_root_goes_to_the_sp_origin_path_kept(self):
        self.assertEqual(self.m('https://sp.auth.adobe.com/indiv/devices'), 'http://127.0.0.1:5001/indiv/devices')

    def test_alias_and_either_scheme(self):
        self.assertEqual(self.m('http://api.auth.adobe.com/api/v1/authorize?r=1'),
                         'http://127.0.0.1:5001/api/v1/authorize?r=1')

    def test_https_upgrade_of_a_live_port_is_undone(self):
        self.assertEqual(self.m('https://127.0.0.1:5002/login'), 'http://127.0.0.1:5002/login')

    def test_longest_world_url_wins(self):
        m = hostmap.HostMap([('https://sp.auth.adobe.com', 'http://127.0.0.1:7000', True), SP])
        self.assertEqual(m('https://sp.auth.adobe.com/adobe-services/session'), 'http://127.0.0.1:5001/adobe-services/session')
        self.assertEqual(m('https://sp.auth.adobe.com/indiv/devices'), 'http://127.0.0.1:7000/indiv/devices')

    def test_other_hosts_and_app_schemes_are_left_alone(self):
        for url in ('https://nesn.com/watch', 'adobepass://android.app', 'https://cable.idp.test.evil/x'):
            self.assertEqual(self.m(url), url)
        self.assertFalse(self.m.is_live('https://nesn.com/watch'))
        self.assertTrue(self.m.is_live('http://127.0.0.1:5002/sso'))


class ExpectationTests(unittest.TestCase):
    def test_xml_path_from_the_root(self):
        body = '<result><authnToken>T</authnToken></result>'
        replay.check({'status': 200, 'xml': {'result/authnToken': 'nonempty'}}, 200, {}, body)
        with self.assertRaises(replay.Failure):
            replay.check({'xml': {'result/authnToken': 'nonempty'}}, 200, {}, '<sessionDevice><authnToken>T</authnToken></sessionDevice>')

    def test_status_list_and_json(self):
        replay.check({'status': [200, 201], 'json': {'code': 'nonempty'}}, 201, {}, '{"code": "ABC"}')
        with self.assertRaises(replay.Failure):
            replay.check({'status': 200, 'json': {'code': 'nonempty'}}, 200, {}, '{"code": ""}')
        with self.assertRaises(replay.Failure):
            replay.check({'status': 200}, 404, {}, '')

    def test_any_of(self):
        expect = {'any_of': [{'status': 403}, {'status': 200, 'contains': 'notAuthorized'}]}
        replay.check(expect, 403, {}, '')
        replay.check(expect, 200, {}, '<error>notAuthorized</error>')
        with self.assertRaises(replay.Failure):
            replay.check(expect, 200, {}, '<result><authzToken>x</authzToken></result>')

    def test_tag_and_token_read_as_the_js_sdk_does(self):
        inner = '<simpleAuthenticationToken><simpleTokenMsoID>Cable</simpleTokenMsoID></simpleAuthenticationToken>'
        escaped = ('&lt;signatureInfo&gt;c2ln&lt;signatureInfo&gt;' + inner.replace('<', '&lt;').replace('>', '&gt;'))
        body = '<result><authnToken>%s</authnToken><userMeta>{}</userMeta></result>' % escaped
        replay.check({'tag': {'userMeta': '{}'}, 'token': {'authnToken simpleTokenMsoID': 'Cable',
                                                           'authnToken zAll': 'absent'}}, 200, {}, body)
        # passim's former shape: one marker, closed, inside an <authnToken> root: no fields for the SDK.
        old = ('&lt;authnToken&gt;&lt;signatureInfo&gt;x&lt;/signatureInfo&gt;'
               + inner.replace('<', '&lt;').replace('>', '&gt;') + '&lt;/authnToken&gt;')
        with self.assertRaises(replay.Failure):
            replay.check({'token': {'authnToken simpleTokenMsoID': 'Cable'}}, 200, {},
                         '<result><authnToken>%s</authnToken></result>' % old)

    def test_present_match_and_null(self):
        expect = {'json': {'redirect_uris': 'present', 'mvpd': None, 'expires': {'match': r'\d+'}}}
        replay.check(expect, 200, {}, '{"redirect_uris": [], "mvpd": null, "expires": "17"}')
        with self.assertRaises(replay.Failure):
            replay.check(expect, 200, {}, '{"redirect_uris": null, "mvpd": null, "expires": "17"}')
        with self.assertRaises(replay.Failure):
            replay.check(expect, 200, {}, '{"redirect_uris": [], "mvpd": "Cable", "expires": "17"}')
        with self.assertRaises(replay.Failure):
            replay.check(expect, 200, {}, '{"redirect_uris": [], "expires": "17 ms"}')

    def test_signature_is_kodis(self):
        header = replay.signed('GET', '/api/v1/authorize', 'REQ', 'pub', 'priv')
        text, _, rest = header.partition(', public_key=')
        self.assertTrue(text.startswith('GET requestor_id=REQ, nonce='))
        self.assertIn('signature_method=HMAC-SHA1', text)
        import base64, hashlib, hmac
        want = base64.b64encode(hmac.new(b'priv', text.encode(), hashlib.sha1).digest()).decode()
        self.assertEqual(rest, 'pub, signature=' + want)


if __name__ == '__main__':
    unittest.main()
