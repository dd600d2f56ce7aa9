// The websocket: connecting, reconnecting with a banner while it is down, sending, and passing
// each server message to its handler (docs/protocol.md lists them).
import {$} from "./dom.js";
import {t} from "./i18n.js";
import {S} from "./state.js";

export function send(msg) { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg)); }

function online(up) {
  const el = $("#offline");
  el.textContent = t("offline");
  el.hidden = up;
}

// handlers: {welcome, lobby, lobby_update, created, invite, snapshot, event, missed, error, pong, chat, chat_log, muted}
export function connect(handlers) {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; online(true); send({type: "hello", name: S.name, token: S.token}); };
  ws.onmessage = (e) => dispatch(handlers, JSON.parse(e.data));
  ws.onclose = () => {
    if (S.ws !== ws) return;
    online(false);  // reconnect by itself: soon at first, then every 5 s
    setTimeout(() => connect(handlers), Math.min(5000, 500 * 2 ** S.retry++));
  };
}

function dispatch(handlers, m) {
  switch (m.type) {
    case "welcome": case "lobby": case "lobby_update": case "created": case "invite": case "snapshot": case "event":
    case "error": case "chat": case "chat_log": case "muted": case "friends": case "friend_update": case "invitation":
    case "challenge": case "event_start": case "hint":
      handlers[m.type](m);
      break;
    case "missed": case "pong":  // the snapshot after ``missed`` holds it all; pongs need nothing
      break;
    default:
      console.warn("a server message this page does not know:", m.type);
  }
}
