"""How a request leaves the engine and how its answer comes back: the two networks of PORTING.md."""

import urllib.parse

from wire import HTTPResult, ProtocolError, Unimplemented

# Transports: how a request leaves the engine and how its answer comes back (PORTING.md)

class HarnessTransport:
    """The harness network: a request is a `request` line, its answer a later `response` message."""

    def begin(self, message):
        pass  # the harness adds the device's cookies itself

    def send(self, app, request_id, method, url, headers, body):
        """The line that stands for the request in the port's answer."""
        return {"type": "request", "app": app, "id": request_id, "method": method, "url": url,
                "headers": headers, "body": body}

    def answer(self, message, app, request_id):
        """The HTTPResult a `response` (or `deliver`) message hands the engine."""
        if message.get("type") != "response":
            raise ProtocolError("a %s message on the harness network" % message.get("type"))
        return HTTPResult.from_message(message)


class LiveTransport:
    """The live network: the port sends each request itself, at once, over loopback HTTP.

    The answer is kept until the harness says, in virtual time, that it arrives (`deliver`); only
    then does the engine see it, through the same HTTPResult a `response` message would give.
    """

    def __init__(self, hosts, fetch_timeout_ms):
        self.hosts = hosts                        # world origin -> (loopback host, port)
        self.timeout = fetch_timeout_ms / 1000.0  # real seconds, per socket operation
        self.cookies = {}                         # the current message's: authority -> Cookie value
        self.answers = {}                         # (app, request id) -> answer shaped as a `response`

    @staticmethod
    def from_hello(hello):
        hosts = hello.get("hosts")
        if not isinstance(hosts, dict):
            raise ProtocolError("a live hello needs a `hosts` object")
        table = {}
        for world, loopback in hosts.items():
            parts = urllib.parse.urlsplit(loopback) if isinstance(loopback, str) else None
            if parts is None or parts.scheme != "http" or not parts.hostname:
                raise ProtocolError("hosts[%r] must be an http:// loopback origin, not %r" % (world, loopback))
            try:
                port = parts.port or 80
            except ValueError:
                raise ProtocolError("hosts[%r] has an invalid port: %r" % (world, loopback)) from None
            table[LiveTransport.origin(world)] = (parts.hostname, port)
        timeout = hello.get("fetchTimeout", 10_000)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ProtocolError("fetchTimeout must be a positive number of milliseconds")
        return LiveTransport(table, timeout)

    @staticmethod
    def origin(url):
        # Scheme and host compare case-insensitively; the port stays as written.
        parts = urllib.parse.urlsplit(url)
        return parts.scheme.lower() + "://" + parts.netloc.lower()

    def begin(self, message):
        cookies = message.get("cookies", {})
        if not isinstance(cookies, dict) or not all(isinstance(v, str) for v in cookies.values()):
            raise ProtocolError("`cookies` must map hosts to Cookie header values")
        self.cookies = cookies

    def send(self, app, request_id, method, url, headers, body):
        answer = self.fetch(method, url, headers, body)
        self.answers[(app, request_id)] = answer
        line = {"type": "fetched", "app": app, "id": request_id, "method": method, "url": url}
        for field in ("status", "error", "timeout"):
            if field in answer:
                line[field] = answer[field]
        return line

    def answer(self, message, app, request_id):
        if message.get("type") != "deliver":
            raise ProtocolError("a %s message on the live network" % message.get("type"))
        stored = self.answers.pop((app, request_id), None)
        if stored is None:
            raise ProtocolError("deliver for unknown request id %d of app %r" % (request_id, app))
        return HTTPResult.from_message(stored)

    def fetch(self, method, url, headers, body):
        """Sends one request like curl's --connect-to: to the loopback listener, with the world's Host."""
        # Imported here: every scenario starts a fresh interpreter, and on the harness network these
        # imports were an eighth of the suite's time (24 s -> 27 s) for nothing.
        import http.client
        import socket
        parts = urllib.parse.urlsplit(url)
        target = self.hosts.get(self.origin(url))
        if target is None:
            return {"error": "could not resolve host"}  # not on this network: nothing is connected
        path = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        data = body.encode("utf-8")
        connection = http.client.HTTPConnection(target[0], target[1], timeout=self.timeout)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", parts.netloc)
            if self.cookies.get(parts.netloc):
                connection.putheader("Cookie", self.cookies[parts.netloc])
            for name, value in headers:
                connection.putheader(name, value)
            if data or method.upper() in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data or None)
            response = connection.getresponse()
            payload = response.read()
            return {"status": response.status, "headers": [[k, v] for k, v in response.getheaders()],
                    "body": payload.decode("utf-8", errors="replace")}
        except ConnectionRefusedError:
            return {"error": "connection refused"}
        except (socket.timeout, TimeoutError):
            return {"timeout": True}
        except socket.gaierror:
            return {"error": "could not resolve host"}
        except http.client.HTTPException as error:
            return {"error": "invalid HTTP answer: %s" % (str(error) or type(error).__name__)}
        except OSError as error:
            return {"error": "connection failed: %s" % (error.strerror or error)}
        except ValueError as error:
            # http.client refuses header names or values it cannot send (a newline in an option).
            return {"error": "request not sendable: %s" % error}
        finally:
            connection.close()


def transport_for(hello):
    network = hello.get("network", "harness")
    if network == "harness":
        return HarnessTransport()
    if network == "live":
        return LiveTransport.from_hello(hello)
    raise Unimplemented("network %r" % network)

