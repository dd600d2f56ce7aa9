// The websocket: connecting, reconnecting with a banner while it is down, sending, and handing
// each server message to the page (main.js: the store, then its area's effects).
import {$} from "./dom.js";
import {t} from "./i18n.js";
import {S} from "./store.js";

let ws = null, retry = 0, onMessage = () => {};

export function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function online(up) {
  const el = $("#offline");
  el.textContent = t("offline");
  el.hidden = up;
}

export function connect(handle = onMessage) {
  onMessage = handle;
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws = socket;
  socket.onopen = () => { retry = 0; online(true); send({type: "hello", name: S.name, token: S.token}); };
  socket.onmessage = (e) => onMessage(JSON.parse(e.data));
  socket.onclose = () => {
    if (ws !== socket) return;
    online(false);  // reconnect by itself: soon at first, then every 5 s
    setTimeout(() => connect(), Math.min(5000, 500 * 2 ** retry++));
  };
}

// Signed in or out: the websocket again, so that its hello carries the session cookie (or none).
export function reconnect() { const old = ws; connect(); if (old) old.close(); }
