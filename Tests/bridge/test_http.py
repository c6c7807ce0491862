"""HTTP side of the bridge: the viewer's files, and nothing else."""
import os
import socket

from conftest import start


def raw_request(port, request):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    status = int(head.split(" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in head.split("\r\n")[1:] if ":" in l)}
    return status, headers


def get(server, path, host=None):
    host = host or f"127.0.0.1:{server.port}"
    return raw_request(server.port, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")


def test_index_is_served_with_a_strict_content_security_policy(server):
    status, headers = get(server, "/")
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert headers["x-content-type-options"] == "nosniff"


def test_module_and_svg_files_get_their_mime_types(server):
    assert get(server, "/app.mjs")[1]["content-type"].startswith("text/javascript")
    assert get(server, "/icon.svg")[1]["content-type"].startswith("image/svg+xml")


def test_a_missing_file_is_404(server):
    assert get(server, "/no-such-file.js")[0] == 404


def test_path_traversal_is_refused(server):
    for path in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/.%2e/x", "/..%2f..%2fetc%2fpasswd"]:
        assert get(server, path)[0] in (403, 404), path


def test_a_symlink_out_of_the_web_folder_is_refused(tmp_path, library_template):
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>x</title>")
    os.symlink("/etc/hostname", web / "leak.txt")
    (web / "inside.txt").write_text("inside")
    os.symlink(web / "inside.txt", web / "alias.txt")
    server = start(tmp_path, library_template, web=web)
    try:
        assert get(server, "/leak.txt")[0] == 403
        assert get(server, "/alias.txt")[0] == 200  # a symlink that stays inside is fine
    finally:
        server.stop()


def test_a_foreign_host_name_is_refused(server):
    # DNS rebinding: a name the attacker controls resolving to 127.0.0.1.
    assert get(server, "/", host=f"evil.example:{server.port}")[0] == 403
    assert get(server, "/", host=f"localhost:{server.port}")[0] == 200
    assert get(server, "/", host="127.0.0.1:1")[0] == 403  # another port is another origin


def test_the_listener_is_bound_to_loopback_only(server):
    # lws 4.1.6 binds every interface for a numeric iface unless IPv6 is disabled.
    port_hex = f"{server.port:04X}"
    listeners = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in open(table).readlines()[1:]:
            fields = line.split()
            local, state = fields[1], fields[3]
            if state == "0A" and local.endswith(":" + port_hex):
                listeners.append((table, local))
    assert listeners == [("/proc/net/tcp", "0100007F:" + port_hex)]
