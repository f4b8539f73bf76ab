#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) for the SMTP client's tests (Tests/PortvaktServerTests/Mail).

Usage: smtp-test-server.py PORT MAILDIR [--starttls] [--auth USER:PASSWORD]

Listens on 127.0.0.1:PORT (0: a free port) and, once it accepts mail, prints "READY <port>" and
writes the port into MAILDIR/ready. Each message is written into MAILDIR as N.eml, as received
(dot-stuffing undone), then N.json: the envelope, whether TLS and AUTH were used, and the
headers, subject and body as Python's email package decodes them, so the test checks the client
against a parser it shares nothing with.

--starttls offers STARTTLS with a certificate for 127.0.0.1 made at start (MAILDIR/cert.pem, for
the client to trust) and refuses MAIL before it; --auth requires AUTH PLAIN with that user and
password (offered only after STARTTLS).
"""
import argparse
import email
import email.policy
import json
import os
import socket
import ssl
import subprocess
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Maildir:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            number = self.count
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": session.ssl is not None,
            "authenticated": bool(session.authenticated),
            "headers": {name: str(value) for name, value in message.items()},
            "subject": str(message["subject"]),
            "body": message.get_content(),
        }
        self.write(f"{number}.eml", envelope.content)
        # The JSON last: a test that sees it finds the .eml complete.
        self.write(f"{number}.json", json.dumps(record, ensure_ascii=False).encode("utf-8"))
        return "250 2.0.0 OK"

    def write(self, name, data):
        path = os.path.join(self.directory, name)
        with open(path + ".tmp", "wb") as file:
            file.write(data)
        os.replace(path + ".tmp", path)


def make_certificate(directory):
    """A self-signed certificate for IP 127.0.0.1 and localhost: (cert path, key path)."""
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )
    return cert, key


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("maildir")
    parser.add_argument("--starttls", action="store_true")
    parser.add_argument("--auth")
    options = parser.parse_args()
    os.makedirs(options.maildir, exist_ok=True)
    port = options.port or free_port()
    settings = {}
    if options.starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*make_certificate(options.maildir))
        settings.update(tls_context=context, require_starttls=True)
    if options.auth:
        user, password = options.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, data):
            ok = mechanism == "PLAIN" and isinstance(data, LoginPassword) \
                and data.login == user.encode() and data.password == password.encode()
            return AuthResult(success=ok)

        settings.update(authenticator=authenticator, auth_require_tls=True, auth_required=True)
    controller = Controller(Maildir(options.maildir), hostname="127.0.0.1", port=port, **settings)
    controller.start()
    print(f"READY {port}", flush=True)
    Maildir(options.maildir).write("ready", str(port).encode())
    # Until the test terminates the process.
    threading.Event().wait()


if __name__ == "__main__":
    main()
