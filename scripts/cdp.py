"""Headless Chromium over the DevTools protocol, for the scripts that check pages in a real browser
(swagger-examples-check.py, advisor-check.py): a small WebSocket client of its own (no Python packages needed),
a page to evaluate scripts in and screenshot, and the check that a screenshot is not blank."""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import time
import urllib.request
import zlib


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def wait_http(url, seconds):
    end = time.time() + seconds
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.read()
        except Exception:
            time.sleep(0.3)
    raise RuntimeError("no answer from " + url)


class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol: text frames, client masking, fragments, pings."""

    def __init__(self, url):
        rest = url[len("ws://"):]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key))
                          .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake failed: " + head.decode(errors="replace"))

    def _exact(self, n):
        b = b""
        while len(b) < n:
            chunk = self.sock.recv(n - len(b))
            if not chunk:
                raise RuntimeError("websocket closed")
            b += chunk
        return b

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        header = bytes([0x81])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            payload = self._exact(n)
            opcode = b0 & 0x0F
            if opcode == 9:  # ping
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class Page:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        my = self.next_id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == my:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m["result"]

    def evaluate(self, js, timeout_s=600):
        r = self.call("Runtime.evaluate", expression=js, awaitPromise=True, returnByValue=True,
                      timeout=timeout_s * 1000)
        if "exceptionDetails" in r:
            raise RuntimeError("page script failed: %s" % json.dumps(r["exceptionDetails"])[:2000])
        return r["result"].get("value")

    def open(self, url):
        """Navigates and waits until the document has loaded."""
        self.call("Page.navigate", url=url)
        end = time.time() + 60
        while time.time() < end:
            if self.evaluate("document.readyState === 'complete' && location.href !== 'about:blank'"):
                return
            time.sleep(0.1)
        raise RuntimeError("page did not load: " + url)

    def screenshot(self, path, width=1280, max_height=4000):
        """The whole page (up to max_height px) as a PNG at path; returns its bytes."""
        # (measured in a window of the width and an ordinary height: the last screenshot's would be the floor)
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=1000, deviceScaleFactor=1, mobile=False)
        height = min(max_height, int(self.evaluate("document.documentElement.scrollHeight")))
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)
        png = base64.b64decode(self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
                               ["data"])
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(png)
        return png


def chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browser(cdp_port, profile):
    """A headless Chromium with its DevTools on cdp_port, and its first page."""
    process = subprocess.Popen([chromium(), "--headless=new", "--no-sandbox", "--disable-gpu",
                                "--disable-dev-shm-usage", "--remote-debugging-port=%d" % cdp_port,
                                "--user-data-dir=" + profile, "--window-size=1280,1000", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    targets = json.loads(wait_http("http://127.0.0.1:%d/json/list" % cdp_port, 30))
    page = Page(WebSocket(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"]))
    page.call("Page.enable")
    return process, page


def distinct_colours(png):
    """Distinct colours sampled from a PNG (8-bit RGB or RGBA): a blank page has one or two."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w, h, ct, bd = 8, b"", 0, 0, 0, 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, bd, ct = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
    assert bd == 8 and ct in (2, 6), (bd, ct)
    bpp = 3 if ct == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    i = 0
    for y in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 2):
                seen.add(bytes(line[x:x + 3]))
        prev = line
    return len(seen)
