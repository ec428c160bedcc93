"""HTTP/1.1 on a keep-alive asyncio connection, as the load scripts (soak-login.py, restv2-load.py) use
it: the request written in one piece, the answer read by Content-Length (passim's always carry it)."""
import urllib.parse


class Failure(Exception):
    """A wrong or missing answer: what a load script counts as an error."""


class KeepAlive:
    """One connection, opened on first use (`open`, given by the subclass, sets `reader` and `writer`),
    closed when an exchange fails or the answer says `Connection: close`."""

    reader = writer = None

    async def open(self):
        raise NotImplementedError

    async def send(self, head, fields=None, body=None, content_type=None):
        """Sends the request line and header lines `head`, with a form (`fields`) or a body; returns
        (status, headers, text), headers by lower-case name, each a list of values."""
        if self.writer is None:
            await self.open()
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            content_type = "application/x-www-form-urlencoded"
        if body is not None:
            head = head + [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        try:
            status, headers, text = await self._exchange(head, body)
        except Exception:
            self.close()
            raise
        if "close" in [v.lower() for v in headers.get("connection", [])]:
            self.close()
        return status, headers, text

    async def _exchange(self, head, body):
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
        status_line = await self.reader.readline()
        if not status_line:
            raise Failure("connection closed")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        data = await self.reader.readexactly(int(headers.get("content-length", ["0"])[0]))
        return status, headers, data.decode("utf-8", "replace")

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
