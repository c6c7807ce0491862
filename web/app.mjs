// Minimal viewer: connects, shows the connection state and draws the frame's layers.
const params = new URLSearchParams(location.search);
const token = params.get("token");
const connection = document.getElementById("connection");
const stage = document.getElementById("stage");
const status = document.getElementById("status");

function connect() {
  const url = `ws://${location.host}/live${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  const ws = new WebSocket(url);
  ws.addEventListener("open", () => { connection.dataset.state = "open"; connection.textContent = "connected"; });
  ws.addEventListener("close", () => {
    connection.dataset.state = "closed";
    connection.textContent = "disconnected, retrying…";
    setTimeout(connect, 1000);
  });
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "frame") draw(message.frame);
    if (message.type === "summary") status.textContent = `${message.decision}: ${message.reason}`;
  });
}

function draw(frame) {
  stage.replaceChildren(...frame.layers.map((layer) => {
    const el = document.createElement("div");
    el.className = "layer";
    el.dataset.role = layer.role;
    const f = layer.frame;
    el.style.left = `${f.x / 2}px`;
    el.style.top = `${f.y / 2}px`;
    el.style.width = `${f.width / 2}px`;
    el.style.height = `${f.height / 2}px`;
    el.style.opacity = String(layer.alpha);
    return el;
  }));
}

connect();
