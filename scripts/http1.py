"""One HTTP/1.1 exchange on a keep-alive asyncio connection, as the load scripts (soak-login.py,
restv2-load.py) make them: the request written in one piece, the answer read by Content-Length."""


async def exchange(reader, writer, head, body=None):
    """Writes `head` (the request line and header lines) and `body`, then reads the answer:
    (status, headers, text), headers by lower-case name, each a list of values. EOFError when the
    peer closed the connection before answering."""
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
    status_line = await reader.readline()
    if not status_line:
        raise EOFError("connection closed")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    data = await reader.readexactly(int(headers.get("content-length", ["0"])[0]))
    return status, headers, data.decode("utf-8", "replace")


def closes(headers):
    """Whether the answer ends its connection (`Connection: close`)."""
    return "close" in [v.lower() for v in headers.get("connection", [])]
