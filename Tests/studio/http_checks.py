"""The studio's HTTP rules over a real connection (docs/Reference.md §10.16), with http.client:
the page's files without the token, 401 without it (a one-line JSON error), the token in the
query or as a bearer, 404 for an unknown path, 400 for bad JSON, a duplicate key or a bad query,
413 over 1 MiB, HEAD wherever GET is (no body), 405 with `Allow` for another method on a path the
studio has, 400 for a second Host header, 403 for a foreign Host, and every operation of
/openapi.json routed (no 405, no router 404)."""
import http.client
import json
import urllib.parse

from page import check


def request(host, method, path, body=None, headers=None, hosts=None):
    """(status, headers, body) of one request; `hosts` replaces the Host header (several allowed)."""
    name, port = host.split(":")
    c = http.client.HTTPConnection(name, int(port), timeout=60)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for h in hosts if hosts is not None else [host]:
        c.putheader("Host", h)
    for k, v in (headers or {}).items():
        c.putheader(k, v)
    data = body.encode() if isinstance(body, str) else body
    if data is not None:
        c.putheader("Content-Length", str(len(data)))
    c.endheaders(data)
    r = c.getresponse()
    out = (r.status, dict(r.getheaders()), r.read())
    c.close()
    return out


def http_test(url):
    u = urllib.parse.urlparse(url)
    host, token = u.netloc, urllib.parse.parse_qs(u.query)["token"][0]
    auth = {"Authorization": "Bearer " + token}
    status, _, body = request(host, "GET", "/")
    check("http: the page without the token", status == 200 and b"<html" in body)
    status, _, body = request(host, "GET", "/api/preset")
    check("http: the API without the token is 401 with a JSON error", status == 401 and body.startswith(b'{"error":'))
    check("http: the token in the query", request(host, "GET", "/api/preset?token=" + token)[0] == 200)
    check("http: the token as a bearer", request(host, "GET", "/api/preset", headers=auth)[0] == 200)
    check("http: an unknown path is 404", request(host, "GET", "/api/nothing", headers=auth)[0] == 404)
    check("http: bad JSON is 400", request(host, "POST", "/api/evaluate", "{", auth)[0] == 400)
    status, _, body = request(host, "POST", "/api/evaluate", '{"params": {}, "params": {"damping": 0.6}}', auth)
    check("http: a duplicate key is 400", status == 400 and b"duplicate key" in body)
    check("http: over 1 MiB is 413", request(host, "POST", "/api/evaluate", " " * ((1 << 20) + 10), auth)[0] == 413)
    check("http: k=9 is 400", request(host, "GET", "/api/candidates?k=9", headers=auth)[0] == 400)
    check("http: an export name with a path is 400", request(host, "POST", "/api/export", '{"name": "../x"}', auth)[0] == 400)
    status, headers, body = request(host, "HEAD", "/api/preset", headers=auth)
    check("http: HEAD on a GET path is 200 without a body", status == 200 and body == b"", f"{status} {len(body)}")
    check("http: HEAD on the page", request(host, "HEAD", "/")[0] == 200)
    for method, path, allow in (("PUT", "/api/preset", "GET, HEAD"), ("PUT", "/api/choices/last", "DELETE"),
                                ("DELETE", "/api/recordings/live-1", "POST"), ("POST", "/", "GET, HEAD")):
        status, headers, body = request(host, method, path, headers=auth)
        check(f"http: {method} {path} is 405 with Allow: {allow}", status == 405 and headers.get("Allow") == allow and body.startswith(b'{"error":'),
              f"{status} {headers.get('Allow')}")
    status, _, body = request(host, "GET", "/api/preset", headers=auth, hosts=[host, "evil.example"])
    check("http: two Host headers are 400", status == 400 and b"one Host header" in body, f"{status} {body[:80]}")
    check("http: a foreign Host is 403", request(host, "GET", "/api/preset", headers=auth, hosts=["127.0.0.1:1"])[0] == 403)
    # Every operation of the document is routed (a handler's own 404 names what is missing).
    document = json.loads(request(host, "GET", "/openapi.json", headers=auth)[2])
    unrouted = []
    for path, operations in document["paths"].items():
        for method in operations:
            status, _, body = request(host, method.upper(), path.replace("{id}", "live-1"),
                                      '{"name": "routed"}' if "requestBody" in operations[method] else None, auth)
            if status == 405 or (status == 404 and b"Not Found" in body):
                unrouted.append(f"{method} {path}")
    check("http: every operation of /openapi.json is routed", not unrouted, ", ".join(unrouted))
