"""A webhook receiver for bench/webhooks.sh: answers 200 and appends "<event id> <arrival ms>" per delivery."""
import http.server
import json
import sys
import threading
import time

out = open(sys.argv[1], "a", buffering=1)
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        arrival = time.time() * 1000
        event_id = self.headers.get("X-Event-Id") or json.loads(body)["id"]
        with lock:
            out.write(f"{event_id} {arrival:.1f}\n")
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 1024
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
