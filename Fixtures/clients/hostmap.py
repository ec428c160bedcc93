"""The one change the replays (`replays/replay.py`) make to a recorded client's requests: where they go.
(yt-dlp needs none: it runs through `passim serve --proxy`, see `ytdlp/run_adobepass.py`.)

`passim serve` prints each host as `WORLD_URL -> LIVE_URL`; clients write Adobe's hosts literally.
A URL under a world URL goes to that host's live URL (the longest match, on whole path segments); a
URL on a world host's authority but under none of its paths (`/indiv/devices` when the SP is declared
at `/adobe-services`) goes to the live origin of the SP declared there with the shortest path, the
same path kept, so passim decides whether it serves it. The scheme is not compared: clients write
`http://` or `https://`, real front ends take both. `https://` to a live port becomes `http://`:
yt-dlp upgrades the URL it posts credentials to, and passim serves plain HTTP. Aliases name other
hosts of the same service (`api.auth.adobe.com` for `sp.auth.adobe.com`).
"""

import urllib.parse


def _split(url):
    p = urllib.parse.urlsplit(url)
    return p.netloc.lower(), p.path.rstrip('/')


class HostMap:
    def __init__(self, pairs, aliases=None):
        """`pairs`: (world URL, live URL, is an SP) for every host passim serve printed."""
        self.entries = []
        for world, live, is_sp in pairs:
            authority, path = _split(world)
            self.entries.append((authority, path, live.rstrip('/'), is_sp))
        self.entries.sort(key=lambda e: len(e[1]), reverse=True)
        self.aliases = {a.lower(): b.lower() for a, b in (aliases or {}).items()}
        self.live = {urllib.parse.urlsplit(live).netloc for _, live, _ in pairs}

    def __call__(self, url):
        p = urllib.parse.urlsplit(url)
        if p.scheme not in ('http', 'https'):
            return url
        if p.netloc in self.live:
            return urllib.parse.urlunsplit(p._replace(scheme='http'))
        authority = self.aliases.get(p.netloc.lower(), p.netloc.lower())
        tail = urllib.parse.urlunsplit(('', '', '', p.query, p.fragment))
        for e_authority, e_path, live, _ in self.entries:
            if authority == e_authority and (p.path == e_path or p.path.startswith(e_path + '/')):
                return live + p.path[len(e_path):] + tail
        for e_authority, e_path, live, is_sp in reversed(self.entries):
            if authority == e_authority and is_sp:
                origin = urllib.parse.urlunsplit(urllib.parse.urlsplit(live)[:2] + ('', '', ''))
                return origin + p.path + tail
        return url

    def is_live(self, url):
        return urllib.parse.urlsplit(url).netloc in self.live


def add_arguments(parser):
    parser.add_argument('--host', nargs=3, action='append', default=[], metavar=('KIND', 'WORLD_URL', 'LIVE_URL'),
                        help="one line of passim serve's output: sp|idp, the world's URL, the live URL")


def from_arguments(args, aliases=None):
    return HostMap([(world, live, kind == 'sp') for kind, world, live in args.host], aliases)
